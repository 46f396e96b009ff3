import { z } from 'zod';

/** Input of "Refresh now" on one execution (the button sends the id). */
export const refreshExecutionSchema = z.object({ executionId: z.uuid('Not an execution id.') });
