import 'server-only';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { db } from '@/lib/db/client';
import { apiKeys, auditLog, users, webhookDeliveries, webhookEndpoints } from '@/lib/db/schema';
import { csvLine } from '@/lib/csv';
import { userIdentityColumns } from './users';

/**
 * The access review an examiner asks for (NYDFS 500.7: least privilege, reviewed at least once a
 * year): every user with role, state, last sign-in, factors and sign-in method; every API key and
 * webhook endpoint with who created it and when it was last used; users idle longer than
 * IDLE_DEACTIVATE_DAYS (default 90) flagged. The page, the CSV and "Mark reviewed" read this one list.
 */
export const REVIEW_ACTION = 'access_review.complete';

export function idleDays(): number {
  const n = Number(process.env.IDLE_DEACTIVATE_DAYS);
  return Number.isFinite(n) && n > 0 ? n : 90;
}
/** Idle users are deactivated (by "Mark reviewed") only when IDLE_DEACTIVATE_DAYS is set explicitly. */
export const idleDeactivates = () => Number(process.env.IDLE_DEACTIVATE_DAYS) > 0;

export async function loadAccessReview() {
  const creator = alias(users, 'creator');
  const idleBefore = new Date(Date.now() - idleDays() * 86_400_000);
  const [people, keys, hooks, last] = await Promise.all([
    db()
      .select({
        ...userIdentityColumns,
        sso: users.sso,
        hasPassword: sql<boolean>`${users.passwordHash} is not null`,
        createdAt: users.createdAt,
        lastSignInAt: users.lastSignInAt,
        factors: sql<string[]>`coalesce((select array_agg(f.kind order by f.created_at) from user_factors f
          where f.user_id = ${users.id} and f.confirmed_at is not null), '{}'::text[])`,
      })
      .from(users)
      .orderBy(asc(users.email)),
    db()
      .select({
        id: apiKeys.id,
        name: apiKeys.name,
        createdBy: creator.email,
        createdAt: apiKeys.createdAt,
        lastUsedAt: apiKeys.lastUsedAt,
        revokedAt: apiKeys.revokedAt,
      })
      .from(apiKeys)
      .leftJoin(creator, eq(creator.id, apiKeys.createdBy))
      .orderBy(desc(apiKeys.createdAt)),
    db()
      .select({
        id: webhookEndpoints.id,
        url: webhookEndpoints.url,
        enabled: webhookEndpoints.enabled,
        createdBy: creator.email,
        createdAt: webhookEndpoints.createdAt,
        lastUsedAt:
          sql<Date | null>`(select max(d.last_attempt_at) from ${webhookDeliveries} d where d.endpoint_id = ${webhookEndpoints.id})`.mapWith(
            (v) => (v ? new Date(v) : null),
          ),
      })
      .from(webhookEndpoints)
      .leftJoin(creator, eq(creator.id, webhookEndpoints.createdBy))
      .orderBy(desc(webhookEndpoints.createdAt)),
    db()
      .select({ at: auditLog.at, by: auditLog.actorEmail })
      .from(auditLog)
      .where(and(eq(auditLog.action, REVIEW_ACTION), eq(auditLog.outcome, 'success')))
      .orderBy(desc(auditLog.id))
      .limit(1),
  ]);
  const usersWithIdle = people.map((u) => ({
    ...u,
    method: u.sso ? 'SSO' : u.hasPassword ? 'password' : 'password (link not used yet)',
    idle: u.active && (u.lastSignInAt ?? u.createdAt) < idleBefore,
  }));
  return { users: usersWithIdle, keys, hooks, lastReview: last[0] ?? null };
}
export type AccessReview = Awaited<ReturnType<typeof loadAccessReview>>;

const iso = (d: Date | null) => (d ? d.toISOString() : '');

/** The examiner's CSV: one line per user, key and endpoint, with the kind in the first column. */
export function accessReviewCsv(r: AccessReview): string {
  let out = csvLine([
    'kind',
    'name',
    'email_or_url',
    'role',
    'state',
    'sign_in',
    'factors',
    'created_by',
    'created_at',
    'last_used_or_sign_in',
    'idle',
  ]);
  for (const u of r.users)
    out += csvLine([
      'user',
      u.name,
      u.email,
      u.role,
      u.active ? 'active' : 'deactivated',
      u.method,
      u.factors.join(' '),
      '',
      iso(u.createdAt),
      iso(u.lastSignInAt),
      u.idle ? 'yes' : 'no',
    ]);
  for (const k of r.keys)
    out += csvLine([
      'api_key',
      k.name,
      '',
      '',
      k.revokedAt ? 'revoked' : 'active',
      '',
      '',
      k.createdBy ?? '',
      iso(k.createdAt),
      iso(k.lastUsedAt),
      '',
    ]);
  for (const h of r.hooks)
    out += csvLine([
      'webhook',
      '',
      h.url,
      '',
      h.enabled ? 'enabled' : 'disabled',
      '',
      '',
      h.createdBy ?? '',
      iso(h.createdAt),
      iso(h.lastUsedAt),
      '',
    ]);
  return out;
}
