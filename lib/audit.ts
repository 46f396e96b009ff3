import 'server-only';
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { db } from '@/lib/db/client';
import { auditLog, auditOutcomeEnum } from '@/lib/db/schema';
import { currentIp } from '@/lib/request';

export interface AuditEntry {
  action: string;
  actor?: { id: string; email: string } | null;
  /** For events without a signed-in actor, such as a failed sign-in: the e-mail as typed. */
  actorEmail?: string | null;
  targetType?: string;
  targetId?: string;
  outcome?: 'success' | 'failure' | 'denied';
  details?: Record<string, unknown>;
  ip?: string | null;
}

/**
 * The one way to write the audit trail. Never put personal data from the service in `details`:
 * record which record was read, not what it says.
 *
 * One INSERT of the content, with no lock: the worker's sealer gives the entry its place in the
 * hash chain (position, previous hash, hash) within a second or so of the caller's commit
 * (lib/evidence/README.md).
 */
export async function audit(entry: AuditEntry, tx: Pick<ReturnType<typeof db>, 'insert'> = db()): Promise<void> {
  const ip = entry.ip === undefined ? await currentIp() : entry.ip;
  await tx.insert(auditLog).values({
    action: entry.action,
    actorId: entry.actor?.id ?? null,
    actorEmail: entry.actor?.email ?? entry.actorEmail?.slice(0, 320) ?? null,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    outcome: entry.outcome ?? 'success',
    ip,
    details: entry.details ?? null,
  });
}

/**
 * The same entry as `audit`, as an `INSERT … SELECT` for a statement that already holds its target
 * in a CTE (`from`): a hot path writes its change and the entry in one statement, which is atomic
 * on its own, instead of BEGIN, the change, the entry and COMMIT (four round trips). `targetId` and
 * `details` are SQL over the CTE's columns.
 */
export async function auditSelectSql(
  entry: Omit<AuditEntry, 'targetId' | 'details' | 'actorEmail'> & { targetId: SQL; details: SQL; from: SQL },
): Promise<SQL> {
  const ip = entry.ip === undefined ? await currentIp() : entry.ip;
  const col = (c: { name: string }) => sql.identifier(c.name);
  const a = auditLog;
  return sql`insert into ${a} (${col(a.action)}, ${col(a.actorId)}, ${col(a.actorEmail)}, ${col(a.targetType)},
      ${col(a.targetId)}, ${col(a.outcome)}, ${col(a.ip)}, ${col(a.details)})
    select ${entry.action}, ${entry.actor?.id ?? null}::uuid, ${entry.actor?.email ?? null}, ${entry.targetType ?? null},
      ${entry.targetId}, ${entry.outcome ?? 'success'}::${sql.identifier(auditOutcomeEnum.enumName)}, ${ip}, ${entry.details}
    from ${entry.from}`;
}

/** The audit trail of one record (an execution's reads, reveals, feedback...). */
export async function listAuditForTarget(targetType: string, targetId: string, limit = 100) {
  return db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetType, targetType), eq(auditLog.targetId, targetId)))
    .orderBy(desc(auditLog.id))
    .limit(limit);
}
