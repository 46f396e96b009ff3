import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ExecutionDetailView } from '@/components/executions/detail/execution-detail';
import { CaseHeader } from '@/components/cases/case-header';
import { CaseHistory } from '@/components/cases/case-history';
import { CaseSection } from '@/components/cases/case-section';
import { NotesThread } from '@/components/cases/notes-thread';
import { ResolvePanel } from '@/components/cases/resolve-panel';
import { QaPanel } from '@/components/qa/qa-panel';
import { FeedbackPanel } from '@/components/feedback/feedback-panel';
import { requireRole } from '@/lib/auth/guards';
import { ROUTE_ACCESS } from '@/lib/auth/access';
import { hasRole, type Role } from '@/lib/auth/roles';
import { listCaseEvents } from '@/lib/cases/history';
import { may } from '@/lib/cases/policy';
import { getCaseOfExecution, listAssignees, listCaseReasons, listNotes } from '@/lib/cases/queries';
import { getExecutionDetail } from '@/lib/executions/detail';
import { getQaOfExecution } from '@/lib/qa/quality';
import { getFeedbackPanel } from '@/lib/feedback/queries';
import { parseListParams, type RawSearchParams } from '@/lib/executions/list-params';
import { getNeighbourIds } from '@/lib/executions/queries';
import { detailHref, listHref, UUID_RE } from '@/lib/executions/list-params';
import { refreshExecutionAction } from '@/lib/actions/executions';

// The title names no person: tabs and history stay free of personal data.
export const metadata: Metadata = { title: 'Execution' };

export default async function ExecutionPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<RawSearchParams>;
}) {
  const user = await requireRole('analyst');
  const { id } = await params;
  // A malformed or unknown id is "not found", never an error page.
  if (!UUID_RE.test(id)) notFound();
  const list = parseListParams(await searchParams);
  const detail = await getExecutionDetail(id, user);
  if (!detail) notFound();
  const [nav, feedback, caseView, notes, reasons, people, qa] = await Promise.all([
    getNeighbourIds(list, detail.id, user.id),
    getFeedbackPanel(detail.id, user.id),
    getCaseOfExecution(detail.id, user),
    listNotes(detail.id, user.id),
    listCaseReasons(),
    listAssignees(),
    getQaOfExecution(detail.id, user.id),
  ]);
  const manages = hasRole(user.role, 'manager');
  const history = caseView
    ? await listCaseEvents(caseView.id, { revealed: Boolean(detail.reveal), sealed: caseView.sealed })
    : null;
  return (
    <ExecutionDetailView
      detail={detail}
      refreshAction={refreshExecutionAction}
      feedbackSlot={feedback ? <FeedbackPanel initial={feedback} role={user.role} /> : null}
      evidence={{
        reportHref: `/api/executions/${detail.id}/report`,
        auditExportHref: hasRole(user.role, ROUTE_ACCESS['/api/audit/export'] as Role)
          ? `/api/audit/export?execution=${detail.id}&format=csv`
          : null,
      }}
      caseHeader={
        <CaseHeader
          view={caseView}
          userId={user.id}
          people={
            caseView
              ? people
                  .filter((p) => may(user, 'assign_other', caseView.policy, { to: p }).allowed)
                  .map((p) => ({ id: p.id, name: p.name }))
              : []
          }
        />
      }
      caseSlot={
        <CaseSection
          resolve={
            caseView ? (
              <ResolvePanel
                view={caseView}
                reasons={reasons}
                feedbackVersion={feedback?.version ?? 'none'}
                decision={detail.decisionType}
                userId={user.id}
              />
            ) : null
          }
          qa={
            qa ? (
              <QaPanel
                view={qa}
                reasons={reasons}
                userId={user.id}
                manages={manages}
                feedbackVersion={feedback?.version ?? 'none'}
              />
            ) : null
          }
          notes={<NotesThread executionId={detail.id} notes={notes} userId={user.id} />}
          history={history ? <CaseHistory events={history} /> : null}
        />
      }
      nav={{
        prevHref: nav.prev ? detailHref(nav.prev, list) : null,
        nextHref: nav.next ? detailHref(nav.next, list) : null,
        // Back to the list at this execution's position, with the same filters and sort.
        listHref: listHref({
          ...list,
          after: undefined,
          before: undefined,
          at: `${list.sort === 'created' ? detail.createdAt : list.sort === 'completed' ? (detail.completedAt ?? '') : (detail.riskScore ?? '')}~${detail.id}`,
        }),
      }}
    />
  );
}
