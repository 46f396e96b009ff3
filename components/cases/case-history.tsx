import type { CaseEventType } from '@/lib/db/case-states';
import type { CaseEventView } from '@/lib/cases/history';
import { formatDuration } from '@/lib/format';
import { LocalTime } from '@/components/time/local-time';

const WHAT: Record<CaseEventType, string> = {
  created: 'Case opened',
  requeued: 'Moved to another queue',
  claimed: 'Claimed (next case)',
  assigned: 'Assigned',
  unassigned: 'Unassigned',
  released: 'Returned to the queue (claim untouched)',
  resolved: 'Resolved',
  escalated: 'Escalated',
  reopened: 'Reopened',
  qa_sampled: 'Sampled for QA review',
  qa_settled: 'QA disagreement settled',
};
const OUTCOME: Record<string, string> = { approve: 'approved', decline: 'declined', escalate: 'escalated' };

/** One line of detail under an event: where it went, to whom, why. */
function describe(e: CaseEventView): string[] {
  const parts: string[] = [];
  if (e.queue) parts.push(e.type === 'escalated' ? `from ${e.queue}` : `queue ${e.queue}`);
  if (e.assignee && (e.type === 'assigned' || e.type === 'claimed')) parts.push(`to ${e.assignee}`);
  if (e.outcome && e.type === 'resolved') parts.push(OUTCOME[e.outcome] ?? e.outcome);
  if (e.reason) parts.push(`reason: ${e.reason}`);
  if (e.waitedSeconds !== null) parts.push(`after ${formatDuration(e.waitedSeconds)} in the queue`);
  if (e.overrode)
    parts.push(`${e.type === 'resolved' || e.type === 'escalated' ? 'claimed by' : 'taken from'} ${e.overrode}`);
  return parts;
}

/**
 * The case's history, oldest first: every transition with who made it and when. Free text comes
 * already masked from lib/cases/history.ts (withheld unless the execution is revealed).
 */
export function CaseHistory({ events }: { events: CaseEventView[] }) {
  if (!events.length) return <p className="text-sm text-muted-fg">No history yet.</p>;
  return (
    <ol
      aria-label="Case history"
      className="flex flex-col gap-2 border-l border-border pl-3"
      data-testid="case-history"
    >
      {events.map((e) => (
        <li key={e.id} className="text-sm" data-event={e.type}>
          <p>
            <span className="font-medium">{WHAT[e.type] ?? e.type}</span>{' '}
            <span className="text-xs text-muted-fg">
              · {e.actor ?? 'Verdict'} · <LocalTime value={e.at} />
            </span>
          </p>
          {describe(e).length ? <p className="text-xs text-muted-fg">{describe(e).join(' · ')}</p> : null}
          {e.comment ? (
            <p className="mt-0.5 whitespace-pre-wrap break-words text-xs">{e.comment}</p>
          ) : e.commentWithheld ? (
            <p className="mt-0.5 text-xs italic text-muted-fg">
              Comment withheld: free text may hold personal data (reveal this execution to read it).
            </p>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
