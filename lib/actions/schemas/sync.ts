import { z } from 'zod';

/** Shared by the buttons and the actions. */
export const startSyncRunSchema = z.object({
  kind: z.enum(['backfill', 'reconcile'], { error: 'Choose a backfill or a reconciliation.' }),
});
export const retryFailedSchema = z.object({});
