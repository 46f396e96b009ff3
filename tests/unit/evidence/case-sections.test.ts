import { describe, expect, it } from 'vitest';
import type { CaseView, NoteView } from '@/lib/cases/queries';
import { caseReportSections } from '@/lib/evidence/report/case-sections';

const resolved: CaseView = {
  id: 'c1',
  version: 3,
  state: 'resolved',
  queue: { id: 'q1', name: 'Rejected to confirm', kind: 'filter' },
  assignee: null,
  claimedAt: null,
  arrivedAt: '2026-11-20T10:00:00.000Z',
  dueAt: '2026-11-21T10:00:00.000Z',
  overdue: false,
  outcome: 'decline',
  reason: 'DOCUMENT_FORGED',
  comment: 'Ana Pereira used a forged passport',
  resolvedBy: { id: 'u1', name: 'Demo Analyst' },
  resolvedAt: '2026-11-20T12:00:00.000Z',
} as CaseView;
const notes: NoteView[] = [
  {
    noteId: 'n1',
    authorId: 'u1',
    author: 'Demo Analyst',
    versions: [
      { version: 1, body: 'Called Ana', at: '2026-11-20T11:00:00.000Z' },
      { version: 2, body: 'Called Ana Pereira, no answer', at: '2026-11-20T11:05:00.000Z' },
    ],
  },
];

describe('the case sections of the report', () => {
  it('withhold free text (comment, notes) without a reveal, and give the outcome in words', () => {
    const [c, n] = caseReportSections(resolved, notes, false);
    const text = JSON.stringify([c, n]);
    expect(text).not.toContain('Pereira');
    expect(text).not.toContain('Called');
    expect(text).not.toContain('forged passport');
    expect(c.rows).toContainEqual(['Outcome', 'Declined']);
    expect(c.rows).toContainEqual(['Queue', 'Rejected to confirm']);
    expect(n.paragraphs).toEqual([expect.stringMatching(/^1 note withheld/)]);
  });

  it('print them under a reveal, the current version of each note with its edit count', () => {
    const [c, n] = caseReportSections(resolved, notes, true);
    expect(c.rows).toContainEqual(['Comment', 'Ana Pereira used a forged passport']);
    expect(n.paragraphs).toEqual([expect.stringMatching(/edited; 2 versions kept\): Called Ana Pereira, no answer$/)]);
  });

  it('say so when the execution has no case or no notes', () => {
    const [c, n] = caseReportSections(null, [], true);
    expect(c.paragraphs?.[0]).toMatch(/no case/);
    expect(n.paragraphs).toEqual(['No notes.']);
  });
});
