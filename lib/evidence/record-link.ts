import { PAGE_ACCESS } from '@/lib/auth/access';
import { hasRole, type Role } from '@/lib/auth/roles';

/**
 * Where an audit entry's record is shown, by its target type, as the page pattern of the access
 * map and the address: an examiner follows an entry to the execution, ring or setting it names.
 * Types without a page of their own (a user, a factor, an export) lead to every entry about the
 * same record.
 */
const PAGE_OF: Record<string, { page: string; href: (id: string) => string }> = {
  execution: { page: '/executions/[id]', href: (id) => `/executions/${encodeURIComponent(id)}` },
  ring: { page: '/rings/[id]', href: (id) => `/rings/${encodeURIComponent(id)}` },
  webhook_endpoint: { page: '/admin/webhooks/[id]', href: (id) => `/admin/webhooks/${encodeURIComponent(id)}` },
  queue: { page: '/queues', href: () => '/queues' },
  case_reason: { page: '/admin/reasons', href: () => '/admin/reasons' },
  api_key: { page: '/admin/api-keys', href: () => '/admin/api-keys' },
  sync_run: { page: '/sync', href: () => '/sync' },
  qa_run: { page: '/quality', href: () => '/quality' },
  setting: { page: '/admin/settings', href: () => '/admin/settings' },
};

/**
 * The link of an entry's record for this viewer: the record's own page when their role may open
 * it (the access map decides, so a manager is never sent to an admin's page), else every audit
 * entry about the same record.
 */
export function auditRecordHref(targetType: string, targetId: string | null, role: Role): string | null {
  if (!targetId) return null;
  const own = PAGE_OF[targetType];
  const access = own ? PAGE_ACCESS[own.page] : undefined;
  if (
    own &&
    access &&
    access !== 'public' &&
    access !== 'api-key' &&
    access !== 'metrics-token' &&
    hasRole(role, access)
  )
    return own.href(targetId);
  return `/audit?target=${encodeURIComponent(targetId)}`;
}
