import type { CaseView, NoteView } from '@/lib/cases/queries';
// UTC, as every time of the PDF report (render.ts says why).
import { formatDateTime } from '@/lib/format';

/** A section of the case report beyond the execution itself: label and value pairs, then paragraphs. */
export interface ReportSection {
  title: string;
  rows?: Array<[string, string]>;
  paragraphs?: string[];
}

const STATE_WORDS: Record<string, string> = { open: 'Open', in_review: 'In review', resolved: 'Resolved' };
const OUTCOME_WORDS: Record<string, string> = { approve: 'Approved', decline: 'Declined', escalate: 'Escalated' };

const WITHHELD = 'withheld: free text may hold personal data (reveal this execution to include it)';

/**
 * The report's one rule for free text (the case's resolution comment, its notes, the feedback's
 * internal notes and decision comments): people write it and it may name the person, so it
 * follows the masking rule of the rest of the report. It is printed only under the requester's
 * active reveal, else withheld with a count, never half-masked.
 */
export function freeText(text: string | null, revealed: boolean): { text: string | null; withheld: number } {
  if (!text) return { text: null, withheld: 0 };
  return revealed ? { text, withheld: 0 } : { text: null, withheld: 1 };
}

/** The sentence for free text withheld under that rule. */
export const withheldFreeText = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'} ${WITHHELD}.`;

/** The case outcome and the notes thread as report sections, their free text under `freeText`. */
export function caseReportSections(c: CaseView | null, notes: NoteView[], revealed: boolean): ReportSection[] {
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
                ['Comment', c.comment ? (freeText(c.comment, revealed).text ?? WITHHELD) : '—'],
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
          : [withheldFreeText(notes.length, 'note')],
  };
  return [caseSection, notesSection];
}
