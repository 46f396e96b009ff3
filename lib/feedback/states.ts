/**
 * How delivery states read and look, everywhere they are shown (detail, list, approvals, sync).
 * Browser-safe.
 */
import type { FeedbackState } from '@/lib/db/schema/feedback';

export type { FeedbackState };

export type Tone = 'ok' | 'warn' | 'reject' | 'neutral' | 'info';

export const STATE_LABELS: Record<FeedbackState, string> = {
  awaiting_approval: 'Awaiting approval',
  pending: 'Pending',
  // Outside the worker, a label being sent is still pending (it may yet go back to waiting for a retry).
  delivering: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
  rejected: 'Rejected',
  superseded: 'Superseded',
};

export const STATE_TONES: Record<FeedbackState, Tone> = {
  awaiting_approval: 'warn',
  pending: 'info',
  delivering: 'info',
  delivered: 'ok',
  failed: 'reject',
  rejected: 'neutral',
  superseded: 'neutral',
};

export const STATE_HINTS: Record<FeedbackState, string> = {
  awaiting_approval: 'Four-eyes is on: a manager approves or rejects it before it is sent.',
  pending: 'Stored in Verdict; being sent to the service, with retries until it arrives.',
  delivering: 'Being sent to the service right now.',
  delivered: 'The service accepted it.',
  failed: 'The service refused it. Read why, then retry or submit a corrected label.',
  rejected: 'A manager rejected it; it was not sent.',
  superseded: 'A newer label replaced it before it was sent.',
};

export const EVENT_LABELS: Record<string, string> = {
  submitted: 'Submitted',
  approved: 'Approved',
  rejected: 'Rejected',
  attempt_failed: 'Attempt failed, will retry',
  delivered: 'Delivered',
  failed: 'Refused by the service',
  retried: 'Retry requested',
  superseded: 'Superseded',
  rescued: 'Re-queued after a stall',
  refreshed: 'Execution refreshed from the service',
  refresh_failed: 'Refresh from the service failed',
};
