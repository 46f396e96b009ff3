/**
 * The event types an endpoint may subscribe to, with the words the console shows. Browser-safe:
 * the endpoint form lists them.
 */
export const WEBHOOK_EVENT_TYPES = [
  'case.resolved',
  'case.escalated',
  'feedback.delivered',
  'feedback.failed',
  'trend.spike',
  'sync.failed',
  'ring.detected',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent only to the endpoint an admin tests, whatever it subscribes to. */
export const TEST_EVENT_TYPE = 'webhook.test';

export const EVENT_TYPE_LABELS: Record<WebhookEventType, string> = {
  'case.resolved': 'A case was resolved',
  'case.escalated': 'A case was escalated',
  'feedback.delivered': 'Feedback reached the service',
  'feedback.failed': 'The service refused feedback',
  'trend.spike': 'A spike alert appeared',
  'sync.failed': 'Sync is stuck or the service unreachable',
  'ring.detected': 'A fraud ring reached the detection size',
};

/** Longest endpoint URL accepted. */
export const MAX_URL_LENGTH = 2000;
