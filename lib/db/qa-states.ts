/**
 * The values of QA sampling, browser-safe and dependency-free: the schema (lib/db/schema/qa.ts),
 * the forms and the pages share them.
 *
 *   open -> in_review (claimed by someone other than the first analyst) -> agreed | disputed
 *   disputed -> settled (a manager picks the final outcome)
 */
export const QA_STATES = ['open', 'in_review', 'agreed', 'disputed', 'settled'] as const;
export type QaState = (typeof QA_STATES)[number];
/** A QA reviewer and a settling manager choose between these: escalating is not a verdict. */
export const QA_OUTCOMES = ['approve', 'decline'] as const;
export type QaOutcome = (typeof QA_OUTCOMES)[number];
/** Filters of the reviews list behind the quality page's numbers. */
export const QA_RESULTS = [
  'pending',
  'decided',
  'agreed',
  'disagreed',
  'disputed',
  'settled',
  'overturned',
  'upheld',
] as const;
export type QaResult = (typeof QA_RESULTS)[number];
export const QA_STATE_LABELS: Record<QaState, string> = {
  open: 'Waiting',
  in_review: 'In review',
  agreed: 'Agreed',
  disputed: 'Disagreement: to settle',
  settled: 'Settled',
};
