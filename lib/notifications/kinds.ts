import { NOTIFICATION_KINDS, type NotificationKind } from '@/lib/db/notification-kinds';
import type { Role } from '@/lib/db/schema/auth';

/**
 * The kinds of notification, browser-safe: the database schema, the preferences form and the bell
 * share them. `role` is the lowest role that can receive the kind (a QA disagreement is settled by
 * managers, so an analyst is never offered it); `inApp` and `email` are the defaults of a person
 * who has not chosen.
 */
export { NOTIFICATION_KINDS, type NotificationKind };

export const NOTIFICATION_KIND_INFO: Record<
  NotificationKind,
  { label: string; describe: string; role: Role; inApp: boolean; email: boolean }
> = {
  assigned: {
    label: 'Assigned to you',
    describe: 'A colleague assigned a case to you.',
    role: 'analyst',
    inApp: true,
    email: true,
  },
  claim_lapse: {
    label: 'Claim about to lapse',
    describe: 'A case you hold returns to its queue soon unless you touch it.',
    role: 'analyst',
    inApp: true,
    email: false,
  },
  sla_near: {
    label: 'Case nearing its SLA',
    describe: 'A case you hold is due within the hour.',
    role: 'analyst',
    inApp: true,
    email: false,
  },
  qa_disagreement: {
    label: 'QA disagreement to settle',
    describe: 'A second reviewer disagreed with the first outcome.',
    role: 'manager',
    inApp: true,
    email: false,
  },
  approval_waiting: {
    label: 'Approval waiting',
    describe: 'A label waits for a second pair of eyes (four-eyes).',
    role: 'manager',
    inApp: true,
    email: false,
  },
  mention: {
    label: 'Mentioned in a note',
    describe: 'Someone wrote @your-name in a case note.',
    role: 'analyst',
    inApp: true,
    email: true,
  },
};

/** How long before a case's due time its holder is told (`sla_near`). */
export const SLA_NEAR_MINUTES = 60;
/** How long before a claim lapses (CASE_CLAIM_MINUTES untouched) its holder is told (`claim_lapse`). */
export const CLAIM_LAPSE_WARN_MINUTES = 5;
/** How often the shell asks for the unread count (and at every navigation). */
export const BELL_POLL_MS = 20_000;
