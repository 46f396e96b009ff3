import { z } from 'zod';
import { LIST_COLUMN_IDS } from '@/lib/executions/columns';

/** The list's search box. */
export const searchSchema = z.object({ term: z.string().max(500, 'The search is too long.') });

export const REVEAL_REASON_MAX = 500;

/** Revealing one execution's personal data needs a reason, recorded in the audit log. */
export const revealSchema = z.object({
  executionId: z.uuid('Unknown execution.'),
  reason: z
    .string()
    .trim()
    .min(10, 'Say why you need to see the personal data (at least 10 characters).')
    .max(REVEAL_REASON_MAX, `A reason is at most ${REVEAL_REASON_MAX} characters.`),
});

export const hideSchema = z.object({ executionId: z.uuid('Unknown execution.') });

export const hiddenColumnsSchema = z.object({ hidden: z.array(z.enum(LIST_COLUMN_IDS)).max(LIST_COLUMN_IDS.length) });
