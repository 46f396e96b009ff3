import type { Role } from '@/lib/db/schema/auth';

export type { Role };
export const ROLE_RANK: Record<Role, number> = { analyst: 1, manager: 2, admin: 3 };

/** Roles are cumulative: a manager has every analyst right, an admin every manager right. */
export function hasRole(userRole: Role, required: Role): boolean {
  return ROLE_RANK[userRole] >= ROLE_RANK[required];
}
