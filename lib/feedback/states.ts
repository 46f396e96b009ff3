/**
 * How delivery states read and look, everywhere they are shown (detail, list, approvals, sync).
 * Browser-safe.
 */
import type { FeedbackState } from '@/lib/db/schema/feedback';

export type { FeedbackState };

/** `executions.feedback_delivery`: the state of an execution's latest effective submission. */
export const DELIVERY_STATES = ['awaiting_approval', 'pending', 'delivered', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

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

/** States in which a submission may still reach the service. */
export const OPEN_STATES: readonly FeedbackState[] = ['awaiting_approval', 'pending', 'delivering', 'failed'];
/** States after which nothing more happens to a submission on its own. */
export const isSettled = (s: FeedbackState) =>
  s === 'delivered' || s === 'failed' || s === 'rejected' || s === 'superseded' || s === 'awaiting_approval';

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

export function stateLabel(s: string | null | undefined): string {
  return s ? (STATE_LABELS[s as FeedbackState] ?? s) : 'None';
}
