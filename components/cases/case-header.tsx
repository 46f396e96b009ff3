'use client';
import { UserCheck, UserMinus } from 'lucide-react';
import { useRouter } from 'next/navigation';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Select } from '@/components/ui/input';
import { assignCaseAction } from '@/lib/actions/cases';
import type { CaseView } from '@/lib/cases/queries';
import { CaseStateBadge, DueText } from './case-badges';
import { NextCaseButton } from './next-case-button';
import { SHORTCUTS } from '@/components/shortcuts/shortcuts';
import { useKey } from './use-key';
import { LocalTime, ZoneHeading } from '@/components/time/local-time';

/**
 * The case line of an execution's header: queue, state, assignee and due time (overdue marked),
 * with "Assign to me" (`a`), unassign, a manager's "assign to", and "Next case" (`n`): each shown
 * when the case policy allows it (`view.controls`); `people` are the colleagues it allows.
 */
export function CaseHeader({
  view,
  userId,
  people,
}: {
  view: CaseView | null;
  userId: string;
  people: Array<{ id: string; name: string }>;
}) {
  const router = useRouter();
  const [pending, start] = React.useTransition();
  const [error, setError] = React.useState<string | null>(null);
  const assign = React.useCallback(
    (assignee: string | undefined) => {
      if (!view) return;
      setError(null);
      start(async () => {
        const r = await assignCaseAction({ caseId: view.id, version: view.version, assignee });
        if (!r.ok) setError(r.error);
        router.refresh();
      });
    },
    [view, router],
  );
  const open = view && view.state !== 'resolved';
  const mine = view?.assignee?.id === userId;
  const canTake = Boolean(open && !mine && view?.controls.assign.allowed);
  useKey('caseAssign', canTake && !pending ? () => assign('me') : null);

  return (
    <div
      aria-label="Case"
      role="group"
      data-testid="case-header"
      data-overdue={view?.overdue || undefined}
      className={
        view?.overdue
          ? 'mt-4 flex flex-wrap items-center gap-x-6 gap-y-2 rounded-md border border-danger/50 bg-danger/5 px-3 py-2'
          : 'mt-4 flex flex-wrap items-center gap-x-6 gap-y-2 rounded-md border border-border bg-muted/40 px-3 py-2'
      }
    >
      {view ? (
        <dl className="flex flex-wrap items-center gap-x-6 gap-y-2 text-sm">
          <div className="flex items-center gap-2">
            <dt className="text-xs text-muted-fg">Queue</dt>
            <dd className="font-medium">{view.queue.name}</dd>
          </div>
          <div className="flex items-center gap-2">
            <dt className="text-xs text-muted-fg">State</dt>
            <dd>
              <CaseStateBadge state={view.state} />
            </dd>
          </div>
          <div className="flex items-center gap-2">
            <dt className="text-xs text-muted-fg">Assignee</dt>
            <dd data-testid="case-assignee">
              {view.assignee ? (
                <span>
                  {mine ? 'You' : view.assignee.name}
                  {view.claimedAt ? (
                    <span className="text-xs text-muted-fg">
                      {' '}
                      · <LocalTime value={view.claimedAt} shape="relative" />
                    </span>
                  ) : null}
                </span>
              ) : (
                <span className="text-muted-fg">{view.state === 'resolved' ? '—' : 'Unassigned'}</span>
              )}
            </dd>
          </div>
          {view.state !== 'resolved' ? (
            <div className="flex items-center gap-2">
              <dt className="text-xs text-muted-fg">
                <ZoneHeading label="Due" />
              </dt>
              <dd>
                <DueText dueAt={view.dueAt} overdue={view.overdue} />
              </dd>
            </div>
          ) : null}
        </dl>
      ) : (
        <p className="text-sm text-muted-fg">No case: this execution matches no queue.</p>
      )}
      <div className="ml-auto flex flex-wrap items-center gap-2">
        {canTake ? (
          <Button size="sm" variant="secondary" disabled={pending} onClick={() => assign('me')} aria-keyshortcuts="a">
            <UserCheck aria-hidden className="h-4 w-4" /> Assign to me{' '}
            <kbd className="font-mono text-[10px] text-muted-fg">{SHORTCUTS.caseAssign.key}</kbd>
          </Button>
        ) : null}
        {open && view?.assignee && view.controls.unassign.allowed ? (
          <Button size="sm" variant="ghost" disabled={pending} onClick={() => assign(undefined)}>
            <UserMinus aria-hidden className="h-4 w-4" /> Unassign
          </Button>
        ) : null}
        {open && view?.controls.assign_other.allowed && people.length ? (
          <Select
            aria-label="Assign to a colleague"
            className="h-8 w-44"
            value=""
            disabled={pending}
            onChange={(e) => e.target.value && assign(e.target.value)}
          >
            <option value="">Assign to…</option>
            {people
              .filter((p) => p.id !== view?.assignee?.id)
              .map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
          </Select>
        ) : null}
        <NextCaseButton />
      </div>
      {open && !view?.controls.assign.allowed && !mine && !view?.assignee ? (
        <p className="w-full text-xs text-muted-fg" data-testid="case-assign-refused">
          {view?.controls.assign.allowed === false ? view.controls.assign.reason : null}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="w-full text-xs text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}
