import Link from 'next/link';
import * as React from 'react';
import { DecisionBadge, FeedbackBadge, SealedLabel, StatusBadge } from '@/components/executions/badges';
import { Alert } from '@/components/ui/alert';
import type { ActionResult } from '@/lib/auth/guards';
import type { ExecutionDetail } from '@/lib/executions/detail';
import { listHref } from '@/lib/executions/list-params';
import { LocalTime } from '@/components/time/local-time';
import { capabilityGroups, matchedRules, ruleExecutions, stepViews } from '@/lib/executions/result';
import { CapabilitiesSection } from './capabilities';
import { ComparisonSection, CredentialsSection } from './credentials';
import { DetailNav } from './detail-keys';
import { RefreshButton } from './refresh-button';
import { RevealBanner, RevealControls } from './reveal-controls';
import { Field } from '@/components/ui/section';
import { AuditSection, CaptureSection, FeedbackSection, LinkedSection, RawSection } from './side';
import { RulesSection, StepsSection } from './timeline';
import { RiskBar, WhyPane } from './why';

const TOC = [
  ['why', 'Why'],
  ['case', 'Case'],
  ['credentials', 'Images'],
  ['data', 'Data'],
  ['capabilities', 'Capabilities'],
  ['steps', 'Steps'],
  ['rules', 'Rules'],
  ['linked', 'Linked'],
  ['feedback', 'Feedback'],
  ['capture', 'Capture'],
  ['raw', 'Raw JSON'],
  ['audit', 'Audit'],
] as const;

export interface DetailProps {
  detail: ExecutionDetail;
  nav: { prevHref: string | null; nextHref: string | null; listHref: string };
  /** The sync feature's refresh action; the button is disabled without it. */
  refreshAction?: (input: { executionId: string }) => Promise<ActionResult<unknown>>;
  /** Where the feedback form (a separate feature) renders. */
  feedbackSlot?: React.ReactNode;
  /** Evidence for an examiner, offered by the page to the roles that may have it. */
  evidence?: { auditExportHref?: string | null; reportHref?: string | null };
  /** Case work (a separate feature): the header's case line, and the resolve panel and notes beside the feedback. */
  caseHeader?: React.ReactNode;
  caseSlot?: React.ReactNode;
}

export function ExecutionDetailView({
  detail: d,
  nav,
  refreshAction,
  feedbackSlot,
  evidence,
  caseHeader,
  caseSlot,
}: DetailProps) {
  const groups = capabilityGroups(d.result);
  const rules = ruleExecutions(d.ruleExecutions);
  const steps = stepViews(d.steps, groups);
  const reveal = d.reveal ? { expiresAt: d.reveal.expiresAt.toISOString(), reason: d.reveal.reason } : null;
  const credentials = Array.isArray(d.result.credentials) ? (d.result.credentials as Record<string, unknown>[]) : [];
  const wiped = Boolean(d.wipedOutAt) || !d.hasPersonalData;
  return (
    <div className="flex flex-col gap-4">
      <DetailNav {...nav} />

      <section aria-labelledby="execution-title" className="rounded-lg border border-border bg-card p-4 shadow-sm">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="flex min-w-0 flex-col gap-2">
            <h1 id="execution-title" className="flex flex-wrap items-center gap-2 text-xl font-semibold tracking-tight">
              <span>Execution</span>
              <span className="font-mono text-base font-normal text-muted-fg">{d.id}</span>
            </h1>
            <div className="flex flex-wrap items-center gap-2">
              <DecisionBadge type={d.decisionType} label={d.decisionLabel} className="text-sm" />
              <StatusBadge status={d.status} />
              {d.wipedOutAt ? (
                <span className="rounded bg-muted px-1.5 py-0.5 text-xs">
                  Wiped at the service <LocalTime value={d.wipedOutAt} />
                </span>
              ) : null}
              {d.goneAt ? (
                <span className="rounded bg-danger/10 px-1.5 py-0.5 text-xs text-danger">
                  Deleted at the service <LocalTime value={d.goneAt} />
                </span>
              ) : null}
              {d.staleSince ? (
                <span className="rounded bg-warn/10 px-1.5 py-0.5 text-xs text-warn">
                  Newer data announced <LocalTime value={d.staleSince} />
                </span>
              ) : null}
              <span data-testid="execution-label">
                {d.feedback.sealed ? (
                  <SealedLabel />
                ) : (
                  <FeedbackBadge status={d.feedback.status} delivery={d.feedback.delivery} />
                )}
              </span>
            </div>
            {d.name || d.documentType ? (
              <p className="text-sm">
                {d.name ? <span className="font-medium">{d.name}</span> : null}
                {d.documentType || d.issuingCountry ? (
                  <span className="text-muted-fg">
                    {' '}
                    · {[d.documentType, d.issuingCountry].filter(Boolean).join(' · ')}
                  </span>
                ) : null}
                {d.documentNumber ? <span className="font-mono text-muted-fg"> · {d.documentNumber}</span> : null}
              </p>
            ) : null}
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <RefreshButton executionId={d.id} action={refreshAction} />
            {evidence?.reportHref ? (
              <a
                href={evidence.reportHref}
                download
                className="inline-flex h-9 items-center rounded-md border border-border px-3 text-sm font-medium hover:bg-muted"
              >
                Case report (PDF)
              </a>
            ) : null}
            <RevealControls executionId={d.id} reveal={reveal} disabled={!d.hasPersonalData} />
          </div>
        </div>
        <div className="mt-4 grid gap-4 lg:grid-cols-[minmax(0,26rem)_1fr]">
          <RiskBar score={d.riskScore} />
          <dl className="grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-3">
            <Field label="Workflow definition">
              <span className="font-mono">{d.definitionKey ?? '—'}</span>
              {d.originalDefinitionKey && d.originalDefinitionKey !== d.definitionKey ? (
                <span className="text-xs text-muted-fg"> (originally {d.originalDefinitionKey})</span>
              ) : null}
            </Field>
            <Field label="Customer reference">
              <span className="font-mono text-xs">{d.customerInternalReference ?? '—'}</span>
            </Field>
            <Field label="User reference">
              <span className="font-mono text-xs">{d.userReference ?? '—'}</span>
            </Field>
            <Field label="Reporting criteria">{d.reportingCriteria ?? '—'}</Field>
            <Field label="Account">
              <Link
                href={listHref({ account: d.accountId })}
                className="font-mono text-xs text-primary hover:underline"
                title="All executions of this account"
              >
                {d.accountId}
              </Link>
            </Field>
            <Field label="Created">
              <LocalTime value={d.createdAt} />
            </Field>
            <Field label="Started">
              <LocalTime value={d.startedAt} />
            </Field>
            <Field label="Completed">
              <LocalTime value={d.completedAt} />
            </Field>
            <Field label="Fetched from the service">
              <LocalTime value={d.fetchedAt} />
            </Field>
          </dl>
        </div>
        {caseHeader}
      </section>

      {reveal ? <RevealBanner reveal={reveal} /> : null}
      {wiped ? (
        <Alert tone="info">
          {d.wipedOutAt
            ? 'The service wiped this execution’s personal data after its retention period.'
            : 'The personal data of this execution was removed from the cache.'}{' '}
          The decision, checks and rules remain.
        </Alert>
      ) : null}

      <nav
        aria-label="Sections"
        className="sticky top-14 z-10 -mx-1 flex gap-1 overflow-x-auto bg-bg/90 px-1 py-1 backdrop-blur"
      >
        {TOC.map(([id, label]) => (
          <a
            key={id}
            href={`#${id}`}
            className="whitespace-nowrap rounded px-2 py-1 text-xs text-muted-fg hover:bg-muted hover:text-fg"
          >
            {label}
          </a>
        ))}
      </nav>

      <div className="grid gap-4 xl:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="flex min-w-0 flex-col gap-4">
          <WhyPane
            decisionType={d.decisionType}
            decisionLabel={d.decisionLabel}
            riskScore={d.riskScore}
            groups={groups}
            rules={matchedRules(rules)}
          />
          <CredentialsSection
            executionId={d.id}
            credentials={credentials}
            images={d.images}
            revealed={Boolean(reveal)}
            wiped={wiped}
          />
          <ComparisonSection rows={d.comparison} />
          <CapabilitiesSection groups={groups} />
          <StepsSection steps={steps} />
          <RulesSection executions={rules} />
        </div>
        <div className="flex min-w-0 flex-col gap-4">
          {caseSlot}
          <FeedbackSection detail={d} slot={feedbackSlot} />
          <LinkedSection detail={d} />
          <CaptureSection result={d.result} />
          <RawSection detail={d} />
          <AuditSection entries={d.audit} exportHref={evidence?.auditExportHref} />
        </div>
      </div>
    </div>
  );
}
