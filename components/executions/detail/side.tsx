import Link from 'next/link';
import * as React from 'react';
import { DecisionBadge, FeedbackBadge, LABEL_SEALED, RiskScore, SealedLabel } from '@/components/executions/badges';
import type { ExecutionDetail, LinkedExecution } from '@/lib/executions/detail';
import { listHref } from '@/lib/executions/list-params';
import { Scalar } from './data-view';
import { Field, Section } from '@/components/ui/section';
import { LocalTime } from '@/components/time/local-time';

function LinkedList({
  title,
  hint,
  rows,
  more,
}: {
  title: string;
  hint: string;
  rows: LinkedExecution[];
  more?: React.ReactNode;
}) {
  return (
    <div>
      <h3 className="text-xs font-semibold uppercase tracking-wide text-muted-fg">
        {title}{' '}
        <span className="font-normal normal-case">
          ({rows.length}
          {rows.length >= 20 ? '+' : ''})
        </span>
      </h3>
      <p className="mb-1 text-xs text-muted-fg">{hint}</p>
      {rows.length ? (
        <ul className="flex flex-col divide-y divide-border rounded-md border border-border">
          {rows.map((r) => (
            <li key={r.id}>
              <Link
                href={`/executions/${r.id}`}
                className="flex flex-wrap items-center gap-2 px-2 py-1.5 text-sm hover:bg-muted/50"
              >
                <span className="whitespace-nowrap text-primary">
                  <LocalTime value={r.createdAt} shape="compact" />
                </span>
                <DecisionBadge type={r.decisionType} />
                <RiskScore score={r.riskScore} />
                {r.sealed ? (
                  <SealedLabel short />
                ) : r.feedbackStatus && r.feedbackStatus !== 'NA' ? (
                  <FeedbackBadge status={r.feedbackStatus} />
                ) : null}
                <span className="ml-auto font-mono text-[10px] text-muted-fg">{r.definitionKey}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-fg">None in the cache.</p>
      )}
      {more}
    </div>
  );
}

export function LinkedSection({ detail }: { detail: ExecutionDetail }) {
  const l = detail.links;
  return (
    <Section
      id="linked"
      title="Linked records"
      description="Other cached executions with the same document, account or face."
    >
      <div className="flex flex-col gap-4">
        <LinkedList
          title="Same document"
          hint="Same issuing country, type, number, names and date of birth. Feedback on this execution also applies to later ones of this document."
          rows={l.document}
        />
        <LinkedList
          title="Same account"
          hint="Earlier and later journeys of this end user."
          rows={l.account}
          more={
            l.account.length ? (
              <Link
                className="mt-1 inline-block text-xs text-primary hover:underline"
                href={listHref({ account: detail.accountId })}
              >
                All executions of this account
              </Link>
            ) : null
          }
        />
        <LinkedList
          title="Same face"
          hint="From the image checks' face search and the lookups capability."
          rows={l.face}
        />
        {l.network.length ? (
          <LinkedList
            title="Same network"
            hint="Matched transactions reported by the lookups capability."
            rows={l.network}
          />
        ) : null}
        {l.notCached ? (
          <p className="text-xs text-muted-fg">
            {l.notCached} more linked execution{l.notCached === 1 ? ' is' : 's are'} not in the cache.
          </p>
        ) : null}
      </div>
    </Section>
  );
}

/** Feedback given on this execution; the form to send feedback plugs into `slot`. */
export function FeedbackSection({ detail, slot }: { detail: ExecutionDetail; slot?: React.ReactNode }) {
  const f = detail.feedback;
  return (
    <Section
      id="feedback"
      title="Feedback"
      description="Fraud or Not fraud, stored in Verdict first and then delivered to the service."
    >
      {f.sealed ? (
        <p className="text-sm text-muted-fg" data-testid="feedback-sealed">
          {LABEL_SEALED}: the label could tell the case’s first outcome to its reviewer.
        </p>
      ) : (
        <dl className="grid grid-cols-2 gap-3">
          <Field label="At the service">
            <FeedbackBadge status={f.status} />
          </Field>
          <Field label="Reason">
            <Scalar value={f.reason && f.reason !== 'NA' ? f.reason : null} />
          </Field>
          <Field label="Provided at">
            <LocalTime value={f.providedAt} />
          </Field>
        </dl>
      )}
      {/* feedbackSlot: the feedback form, its delivery state and history (the feedback feature). */}
      <div data-slot="feedback" className="mt-3 border-t border-border pt-3 empty:hidden">
        {slot}
      </div>
    </Section>
  );
}

export function CaptureSection({ result }: { result: Record<string, unknown> }) {
  const cc = (result.captureClient ?? null) as Record<string, unknown> | null;
  const consent = (result.consent ?? null) as Record<string, unknown> | null;
  const rows = (v: unknown): string[][] =>
    Array.isArray(v) ? v.filter(Array.isArray).map((r) => (r as unknown[]).map(String)) : [];
  return (
    <Section id="capture" title="Capture client and consent">
      <dl className="grid grid-cols-2 gap-3">
        <Field label="Client">
          <Scalar value={cc?.client} />
        </Field>
        <Field label="Platform">
          <Scalar value={cc?.platform} />
        </Field>
        <Field label="Version">
          <Scalar value={cc?.version} />
        </Field>
        <Field label="Operating system">
          <Scalar value={cc?.osName} />
        </Field>
        <Field label="Consent obtained">
          <Scalar value={consent?.obtained} />
        </Field>
        <Field label="Consent time">
          <Scalar value={consent?.obtainedAt} />
        </Field>
      </dl>
      {rows(cc?.state).length ? (
        <div className="mt-3">
          <h3 className="text-xs text-muted-fg">Capture steps</h3>
          {rows(cc?.state).map((r, i) => (
            <p key={i} className="font-mono text-xs">
              {r.join(' → ')}
            </p>
          ))}
        </div>
      ) : null}
      {rows(cc?.captureDetails).length ? (
        <div className="mt-2">
          <h3 className="text-xs text-muted-fg">Capture modes</h3>
          {rows(cc?.captureDetails).map((r, i) => (
            <p key={i} className="font-mono text-xs">
              {r.join(', ')}
            </p>
          ))}
        </div>
      ) : null}
      {!cc && !consent ? (
        <p className="mt-2 text-sm text-muted-fg">No capture client or consent in this result.</p>
      ) : null}
    </Section>
  );
}

export function RawSection({ detail }: { detail: ExecutionDetail }) {
  const blocks: Array<[string, unknown]> = [
    ['Result', detail.result],
    ['Steps', detail.steps],
    ['Rule executions', detail.ruleExecutions],
  ];
  return (
    <Section
      id="raw"
      title="Raw JSON"
      description={
        detail.reveal
          ? 'As the service sent it (revealed to you).'
          : 'As the service sent it, with personal data masked.'
      }
    >
      <div className="flex flex-col gap-2">
        {blocks.map(([label, value]) => (
          <details key={label} className="rounded-md border border-border">
            <summary className="cursor-pointer px-3 py-2 text-sm hover:bg-muted/50">{label}</summary>
            <pre
              tabIndex={0}
              className="max-h-[32rem] overflow-auto border-t border-border p-3 text-[11px] leading-relaxed"
            >
              {JSON.stringify(value, null, 2)}
            </pre>
          </details>
        ))}
      </div>
    </Section>
  );
}

const ACTION_TEXT: Record<string, string> = {
  'execution.view': 'viewed',
  'pii.reveal': 'revealed personal data',
  'pii.hide': 'hid personal data',
  'image.view': 'viewed an image',
  'executions.export': 'exported',
};

export function AuditSection({
  entries,
  exportHref,
}: {
  entries: ExecutionDetail['audit'];
  /** The examiner's export of this execution's trail (managers and admins only). */
  exportHref?: string | null;
}) {
  return (
    <Section
      id="audit"
      title="Audit trail"
      description="Who read or changed this execution, newest first."
      actions={
        exportHref ? (
          <a href={exportHref} className="text-xs font-medium text-primary underline-offset-2 hover:underline" download>
            Export audit
          </a>
        ) : null
      }
    >
      {entries.length ? (
        <ol className="flex flex-col gap-1.5 text-sm">
          {entries.map((e) => {
            const reason = e.details && typeof e.details.reason === 'string' ? e.details.reason : null;
            return (
              <li key={e.id} className="flex flex-col border-b border-border pb-1.5 last:border-0">
                <span>
                  <span className="font-medium">{e.actorEmail ?? 'system'}</span>{' '}
                  {ACTION_TEXT[e.action] ?? <code className="font-mono text-xs">{e.action}</code>}
                  {e.outcome !== 'success' ? <span className="ml-1 text-xs text-danger">({e.outcome})</span> : null}
                </span>
                {reason ? <span className="text-xs">Reason: “{reason}”</span> : null}
                <LocalTime value={e.at} className="text-xs text-muted-fg" />
              </li>
            );
          })}
        </ol>
      ) : (
        <p className="text-sm text-muted-fg">No entries yet.</p>
      )}
    </Section>
  );
}
