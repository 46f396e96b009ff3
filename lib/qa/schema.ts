import { z } from 'zod';
import { QA_RESULTS } from '@/lib/db/qa-states';
import { blankToUndefined } from '@/lib/utils';

/**
 * Inputs of QA sampling and the quality pages' URL state, one zod schema each, shared by the forms
 * and the actions. Browser-safe.
 */
const checkbox = z.preprocess((v) => v === true || v === 'on' || v === 'true', z.boolean());

export const QA_RATE_MAX = 100;
export const QA_MIN_MAX = 50;

export const qaSettingsSchema = z.object({
  ratePercent: z.coerce
    .number({ error: 'The rate is a percentage.' })
    .min(0.1, 'The rate is 0.1 to 100 %.')
    .max(QA_RATE_MAX, 'The rate is 0.1 to 100 %.')
    // One decimal is as fine as a weekly sample gets; more would only look precise.
    .transform((n) => Math.round(n * 10) / 10),
  minPerAnalyst: z.coerce
    .number({ error: 'The minimum is a whole number.' })
    .int('The minimum is a whole number.')
    .min(0, `The minimum is 0 to ${QA_MIN_MAX} cases.`)
    .max(QA_MIN_MAX, `The minimum is 0 to ${QA_MIN_MAX} cases.`),
  enabled: checkbox,
});
export type QaSettings = z.output<typeof qaSettingsSchema>;

/** A Monday (UTC) as YYYY-MM-DD; empty means last week. */
export const startQaSamplingSchema = z.object({
  week: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose a week.')
      .refine((s) => {
        const d = new Date(`${s}T00:00:00Z`);
        return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s) && d.getUTCDay() === 1;
      }, 'A week starts on a Monday.')
      .optional(),
  ),
});

/** The reviews list's URL state (the list behind every number of the quality page); forgiving. */
export const qaListParamsSchema = z.object({
  analyst: z.uuid().optional().catch(undefined),
  queue: z.uuid().optional().catch(undefined),
  result: z.enum(QA_RESULTS).optional().catch(undefined),
  week: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional()
    .catch(undefined),
});
export type QaListParams = z.output<typeof qaListParamsSchema>;

export function qaListHref(p: QaListParams): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(p)) if (v) q.set(k, v);
  const s = q.toString();
  return `/quality/reviews${s ? `?${s}` : ''}`;
}
