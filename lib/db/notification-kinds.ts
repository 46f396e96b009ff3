/** The kinds of notification: a value list the schema needs, so it lives with the database (lib/notifications/kinds.ts describes each). Browser-safe. */
export const NOTIFICATION_KINDS = [
  'assigned',
  'claim_lapse',
  'sla_near',
  'qa_disagreement',
  'approval_waiting',
  'mention',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
