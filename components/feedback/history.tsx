import * as React from 'react';
import type { SubmissionView } from '@/lib/feedback/queries';
import type { FeedbackDeliveryError } from '@/lib/feedback/queries';
import { REASON_LABELS, STATUS_LABELS, type FeedbackReason, type FeedbackStatus } from '@/lib/feedback/schema';
import { EVENT_LABELS } from '@/lib/feedback/states';
import { DeliveryStateBadge } from './delivery-badge';
import { LocalTime } from '@/components/time/local-time';

/** "Fraud · Identity fraud"; unknown values are shown as they are. */
export function labelText(status: string, reason: string | null | undefined): string {
  const s = STATUS_LABELS[status as FeedbackStatus] ?? status;
  return reason && reason !== 'NA' ? `${s} · ${REASON_LABELS[reason as FeedbackReason] ?? reason}` : s;
}

/** The service's answer as it gave it: status, title and detail (text, never markup). */
export function ServiceError({ error }: { error: FeedbackDeliveryError }) {
  const head = [error.status ? `HTTP ${error.status}` : null, error.title].filter(Boolean).join(' ');
  return (
    <span data-testid="service-error">
      {head || 'Error'}
      {error.detail ? <>: {error.detail}</> : !error.status && error.message ? <>: {error.message}</> : null}
    </span>
  );
}

function eventLine(e: SubmissionView['events'][number]): React.ReactNode {
  const label = EVENT_LABELS[e.kind] ?? e.kind;
  const error = (e.details as { error?: FeedbackDeliveryError } | null)?.error;
  const comment = (e.details as { comment?: string } | null)?.comment;
  return (
    <>
      <span className="font-medium">{label}</span>
      {e.actorEmail ? <span className="text-muted-fg"> by {e.actorEmail}</span> : null}
      {error ? (
        <span className="text-muted-fg">
          {' '}
          — <ServiceError error={error} />
        </span>
      ) : null}
      {comment ? <span className="text-muted-fg"> — “{comment}”</span> : null}
    </>
  );
}

/**
 * Every label ever given to the execution, newest first, with each step of its way (stored,
 * approved, attempts, delivered). Nothing here is ever overwritten.
 */
export function FeedbackHistory({ history }: { history: SubmissionView[] }) {
  if (!history.length) return null;
  return (
    <section aria-labelledby="feedback-history-title" className="border-t border-border pt-3">
      <h3 id="feedback-history-title" className="text-sm font-semibold">
        History <span className="font-normal text-muted-fg">({history.length})</span>
      </h3>
      <ol className="mt-2 flex flex-col gap-3" data-testid="feedback-history">
        {history.map((s) => (
          <li key={s.id} className="relative border-l-2 border-border pl-3">
            <div className="flex flex-wrap items-center gap-2">
              <span className="text-sm font-medium">{labelText(s.status, s.reason)}</span>
              <DeliveryStateBadge state={s.state} />
            </div>
            <p className="text-xs text-muted-fg">
              {s.submittedByEmail} · <LocalTime value={s.submittedAt} />
              {s.batchId ? ' · bulk' : ''}
            </p>
            {s.note ? <p className="mt-1 whitespace-pre-wrap break-words text-xs">{s.note}</p> : null}
            {s.events.length ? (
              <details className="mt-1 text-xs">
                <summary className="cursor-pointer text-muted-fg hover:text-fg">Timeline ({s.events.length})</summary>
                <ol className="mt-1 flex flex-col gap-0.5">
                  {s.events.map((e) => (
                    <li key={e.id}>
                      <LocalTime value={e.at} className="tabular-nums text-muted-fg" /> {eventLine(e)}
                    </li>
                  ))}
                </ol>
              </details>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
