import 'server-only';
import { sql } from 'drizzle-orm';
import type { Tx } from '@/lib/db/client';
import { notificationPreferences, notifications, users } from '@/lib/db/schema';
import { ROLE_RANK } from '@/lib/auth/roles';
import { enqueueNotificationEmails, mailConfigured } from './email';
import { NOTIFICATION_KIND_INFO, type NotificationKind } from './kinds';

export interface Notice {
  kind: NotificationKind;
  /** The people to tell; the actor, inactive users and those below the kind's role are left out. */
  to: string[];
  actorId?: string | null;
  executionId?: string | null;
  caseId?: string | null;
  /** The occurrence: a second notice with the same key for the same person is dropped (sent once). */
  onceKey: string;
  /** Ids, queue names, counts: never the verified person's data (it may be mailed). */
  details?: Record<string, unknown>;
}

/**
 * Writes a notice for each recipient in the caller's transaction, so it exists exactly when the
 * change it tells of commits, and queues its e-mail (when SMTP is configured and the person chose
 * it) in the same transaction, so a restart loses neither. One statement: each person's choice is
 * read beside the insert, and a person who chose neither is skipped. Returns the rows written.
 */
export async function notify(tx: Tx, n: Notice): Promise<number> {
  const to = [...new Set(n.to)].filter((id) => id !== n.actorId);
  if (!to.length) return 0;
  const info = NOTIFICATION_KIND_INFO[n.kind];
  const mail = mailConfigured();
  const roles = Object.entries(ROLE_RANK)
    .filter(([, rank]) => rank >= ROLE_RANK[info.role])
    .map(([r]) => r);
  const inApp = sql`coalesce(p.in_app, ${info.inApp})`;
  const email = sql`(${mail} and coalesce(p.email, ${info.email}))`;
  const rows = await tx.execute<{ id: string; email_state: string | null }>(sql`
    insert into ${notifications} (user_id, kind, actor_id, execution_id, case_id, once_key, in_app, email_state, details)
    select u.id, ${n.kind}, ${n.actorId ?? null}::uuid, ${n.executionId ?? null}::uuid, ${n.caseId ?? null}::uuid,
      ${n.onceKey}, ${inApp}, case when ${email} then 'queued' end, ${JSON.stringify(n.details ?? {})}::jsonb
    from ${users} u
    left join ${notificationPreferences} p on p.user_id = u.id and p.kind = ${n.kind}
    where u.id in (${sql.join(
      to.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) and u.active and u.role::text in (${sql.join(
      roles.map((r) => sql`${r}`),
      sql`, `,
    )}) and (${inApp} or ${email})
    on conflict (user_id, once_key) do nothing
    returning id, email_state`);
  const queued = rows.rows.filter((r) => r.email_state === 'queued').map((r) => Number(r.id));
  if (queued.length) await enqueueNotificationEmails(tx, queued);
  return rows.rows.length;
}

/** Active managers and admins: who settles QA disagreements and approves four-eyes labels. */
export async function managerIds(tx: Tx): Promise<string[]> {
  const rows = await tx.execute<{ id: string }>(
    sql`select id from ${users} where active and role in ('manager', 'admin')`,
  );
  return rows.rows.map((r) => r.id);
}

/**
 * The people a note names with `@name`: an active user whose e-mail's local part, or whose name
 * without spaces, is the word after the `@` (case-insensitive). `@ada` or `@AdaAnalyst` for
 * "Ada Analyst" (ada@…); an e-mail address in the text (x@y.z) is not a mention.
 */
export async function mentionedIds(tx: Tx, body: string): Promise<string[]> {
  const words = [...body.matchAll(/(?:^|[^\w@.])@([\w.-]{2,64})/g)].map((m) =>
    m[1].replace(/[.-]+$/, '').toLowerCase(),
  );
  if (!words.length) return [];
  const list = sql.join(
    [...new Set(words)].slice(0, 20).map((w) => sql`${w}`),
    sql`, `,
  );
  const rows = await tx.execute<{ id: string }>(sql`
    select id from ${users} where active and (lower(split_part(email, '@', 1)) in (${list})
      or lower(replace(name, ' ', '')) in (${list}))`);
  return rows.rows.map((r) => r.id);
}
