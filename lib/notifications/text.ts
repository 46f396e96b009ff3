import { NOTIFICATION_KIND_INFO, type NotificationKind } from './kinds';

/**
 * The one sentence of a notice, for the page and the e-mail alike. It names the case by its short
 * id only: no data of the verified person, so the same sentence may leave Verdict by e-mail.
 */
export function noticeText(n: {
  kind: NotificationKind;
  executionId: string | null;
  actorName?: string | null;
  details: Record<string, unknown>;
}): string {
  const ref = n.executionId ? `case ${n.executionId.slice(0, 8)}` : 'a case';
  const by = n.actorName ? ` by ${n.actorName}` : '';
  const queue = typeof n.details.queue === 'string' ? ` in ${n.details.queue}` : '';
  const count = typeof n.details.count === 'number' ? n.details.count : 1;
  switch (n.kind) {
    case 'assigned':
      return `You were assigned ${ref}${queue}${by}.`;
    case 'claim_lapse':
      return `Your claim of ${ref} returns to its queue in a few minutes unless you work on it.`;
    case 'sla_near':
      return `${capital(ref)}${queue} is due within the hour.`;
    case 'qa_disagreement':
      return `A QA reviewer disagreed on ${ref}: a manager settles it.`;
    case 'approval_waiting':
      return count > 1
        ? `${count} labels${by} wait for approval (four-eyes).`
        : `A label on ${ref}${by} waits for approval (four-eyes).`;
    case 'mention':
      return `${n.actorName ?? 'Someone'} mentioned you in a note on ${ref}.`;
    default:
      return NOTIFICATION_KIND_INFO[n.kind as NotificationKind]?.label ?? 'Notification';
  }
}

/** Where a notice leads: the execution, or the page where the managers' kinds are acted on. */
export function noticeHref(n: { kind: NotificationKind; executionId: string | null }): string {
  if (n.kind === 'approval_waiting') return '/approvals';
  if (n.kind === 'qa_disagreement') return '/quality/reviews';
  return n.executionId ? `/executions/${n.executionId}` : '/';
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
