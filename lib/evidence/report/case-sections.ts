import type { CaseView, NoteView } from '@/lib/data/cases';
import { formatDateTime } from '@/lib/format';

/** A section of the case report beyond the execution itself: label and value pairs, then paragraphs. */
export interface ReportSection {
  title: string;
  rows?: Array<[string, string]>;
  paragraphs?: string[];
}

const STATE_WORDS: Record<string, string> = { open: 'Open', in_review: 'In review', resolved: 'Resolved' };
const OUTCOME_WORDS: Record<string, string> = { approve: 'Approved', decline: 'Declined', escalate: 'Escalated' };

/**
 * The case outcome and the notes thread as report sections. Free text (the resolution comment and
 * the notes) is written by analysts and may name the person, so it follows the masking rule of
 * the rest of the report: printed only under the requester's active reveal, else withheld with a
 * count, never half-masked.
 */
export function caseReportSections(c: CaseView | null, notes: NoteView[], revealed: boolean): ReportSection[] {
  const withheld = 'withheld: free text may hold personal data (reveal this execution to include it)';
  const caseSection: ReportSection = c
    ? {
        title: 'Case',
        rows: [
          ['Queue', c.queue.name],
          ['State', STATE_WORDS[c.state] ?? c.state],
          ['Assignee', c.assignee?.name ?? 'nobody'],
          ['Arrived', formatDateTime(c.arrivedAt)],
          ['Due', `${formatDateTime(c.dueAt)}${c.overdue ? ' (overdue)' : ''}`],
          ...(c.outcome
            ? ([
                ['Outcome', OUTCOME_WORDS[c.outcome] ?? c.outcome],
                ['Reason', c.reasonLabel ?? c.reason ?? '—'],
                ['Comment', c.comment ? (revealed ? c.comment : withheld) : '—'],
                [
                  'Resolved by',
                  `${c.resolvedBy?.name ?? '—'}${c.resolvedAt ? ` on ${formatDateTime(c.resolvedAt)}` : ''}`,
                ],
              ] as Array<[string, string]>)
            : []),
        ],
      }
    : { title: 'Case', paragraphs: ['This execution has no case: it matched no review queue.'] };
  const notesSection: ReportSection = {
    title: 'Notes',
    paragraphs:
      notes.length === 0
        ? ['No notes.']
        : revealed
          ? notes.map((n) => {
              const now = n.versions[n.versions.length - 1];
              const edits = n.versions.length > 1 ? ` (edited; ${n.versions.length} versions kept)` : '';
              return `${n.author}, ${formatDateTime(now.at)}${edits}: ${now.body}`;
            })
          : [`${notes.length} note${notes.length === 1 ? '' : 's'} ${withheld}.`],
  };
  return [caseSection, notesSection];
}
