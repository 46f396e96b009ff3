import 'server-only';
import { db } from '@/lib/db/client';
import { auditLog } from '@/lib/db/schema';
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
 * One INSERT: the table's trigger chains the entry (position, previous hash, hash) under the
 * chain head's row lock, held until the caller's transaction ends, so keep audited transactions
 * short (lib/evidence/README.md).
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
