'use server';
import { revalidatePath } from 'next/cache';
import { defineAction } from '@/lib/auth/guards';
import { getBatchProgress, getBulkFeedbackPreview, getFeedbackPanel } from '@/lib/feedback/queries';
import {
  batchIdSchema,
  bulkFeedbackSchema,
  executionIdSchema,
  executionIdsSchema,
  feedbackFormSchema,
  submissionIdSchema,
} from '@/lib/feedback/schema';
import { retryFeedback } from '@/lib/feedback/decide';
import { submitBulkFeedback, submitFeedback } from '@/lib/feedback/submit';

/**
 * Feedback actions of the executions pages. Each checks the session and role and parses its
 * input itself (defineAction); the logic lives in lib/feedback/submit.ts. Analysts, managers
 * and admins may label.
 */

export const submitFeedbackAction = defineAction(
  { name: 'feedback.submit', role: 'analyst', schema: feedbackFormSchema },
  async (input, user) => {
    const r = await submitFeedback(user, input);
    if (!r.ok) return r;
    revalidatePath(`/executions/${input.executionId}`);
    return { ...r, data: { ...r.data, panel: await getFeedbackPanel(input.executionId, user.id) } };
  },
);

export const retryFeedbackAction = defineAction(
  { name: 'feedback.retry', role: 'analyst', schema: submissionIdSchema },
  async (input, user) => retryFeedback(user, input.submissionId),
);

/** The panel's data again, for polling while a delivery is under way. */
export const getFeedbackPanelAction = defineAction(
  { name: 'feedback.panel', role: 'analyst', schema: executionIdSchema },
  async (input, user) => {
    const panel = await getFeedbackPanel(input.executionId, user.id);
    if (!panel) return { ok: false as const, code: 'INVALID' as const, error: 'This execution is not in Verdict.' };
    return { ok: true as const, data: panel };
  },
);

/** What the bulk confirmation shows: how many, the combined blast radius, and the versions to guard with. */
export const previewBulkFeedbackAction = defineAction(
  { name: 'feedback.bulk_preview', role: 'analyst', schema: executionIdsSchema },
  async (input, user) => getBulkFeedbackPreview(input.executionIds, user.id),
);

// No revalidation here: re-rendering the list would drop its selection, and with it the open
// dialog that shows the progress. The dialog refreshes the list when it closes.
export const submitBulkFeedbackAction = defineAction(
  { name: 'feedback.submit_bulk', role: 'analyst', schema: bulkFeedbackSchema },
  async (input, user) => submitBulkFeedback(user, input),
);

export const getBatchProgressAction = defineAction(
  { name: 'feedback.batch_progress', role: 'analyst', schema: batchIdSchema },
  async (input) => getBatchProgress(input.batchId),
);
