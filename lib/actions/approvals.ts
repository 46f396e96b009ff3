'use server';
import { defineAction } from '@/lib/auth/guards';
import { approveSchema, rejectSchema } from '@/lib/feedback/schema';
import { decideFeedback } from '@/lib/feedback/decide';

/**
 * Four-eyes decisions: managers (and admins) approve or reject an analyst's FRAUD / NOT_FRAUD
 * label. The queue is not re-rendered after a decision: the decided row stays, showing the
 * outcome, so rows do not jump while a manager works down the list.
 */

export const approveFeedbackAction = defineAction(
  { name: 'feedback.approve', role: 'manager', schema: approveSchema },
  async (input, user) => decideFeedback(user, input.submissionId, 'approve', input.comment),
);

export const rejectFeedbackAction = defineAction(
  { name: 'feedback.reject', role: 'manager', schema: rejectSchema },
  async (input, user) => decideFeedback(user, input.submissionId, 'reject', input.comment),
);
