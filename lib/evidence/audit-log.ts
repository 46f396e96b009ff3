import 'server-only';
import { and, desc, eq, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { db } from '@/lib/db/client';
import { auditCheckpoints, auditLog, auditVerifications } from '@/lib/db/schema';
import { unsealedEntries } from '@/lib/evidence/seal';
import { redactSealedEntries } from '@/lib/qa/seal';

/** Forgiving schema for the audit page's URL: bad values fall back to "no filter". */
export const auditQuerySchema = z.object({
  user: z.string().max(320).optional().catch(undefined),
  action: z.string().max(100).optional().catch(undefined),
  target: z.string().max(200).optional().catch(undefined),
  from: z.iso.date().optional().catch(undefined),
  to: z.iso.date().optional().catch(undefined),
  before: z.string().regex(/^\d+$/).optional().catch(undefined),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const AUDIT_PAGE_SIZE = 50;

/**
 * Newest first, keyset-paged on the id (ids grow with time), as `viewerId` may read them: entries
 * about an execution whose QA review is blind for them lose the outcome and label (lib/qa/seal.ts).
 */
export async function listAuditEntries(q: AuditQuery, viewerId: string, limit = AUDIT_PAGE_SIZE) {
  const where: SQL[] = [];
  if (q.user) where.push(sql`lower(${auditLog.actorEmail}) = ${q.user.toLowerCase()}`);
  if (q.action) where.push(eq(auditLog.action, q.action));
  if (q.target) where.push(or(eq(auditLog.targetId, q.target), eq(auditLog.targetType, q.target))!);
  if (q.from) where.push(gte(auditLog.at, new Date(`${q.from}T00:00:00Z`)));
  if (q.to) where.push(lt(auditLog.at, new Date(new Date(`${q.to}T00:00:00Z`).getTime() + 86_400_000)));
  if (q.before) where.push(lt(auditLog.id, Number(q.before)));
  const rows = await db()
    .select()
    .from(auditLog)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(auditLog.id))
    .limit(limit + 1);
  return {
    rows: await redactSealedEntries(db(), viewerId, rows.slice(0, limit)),
    nextBefore: rows.length > limit ? String(rows[limit - 1].id) : null,
  };
}

export async function listAuditActions(): Promise<string[]> {
  const rows = await db().selectDistinct({ action: auditLog.action }).from(auditLog).orderBy(auditLog.action);
  return rows.map((r) => r.action);
}

export async function listAuditActors(): Promise<string[]> {
  const rows = await db()
    .selectDistinct({ email: sql<string>`lower(${auditLog.actorEmail})` })
    .from(auditLog)
    .where(sql`${auditLog.actorEmail} is not null`)
    .orderBy(sql`lower(${auditLog.actorEmail})`)
    .limit(500);
  return rows.map((r) => r.email);
}

/**
 * What the audit page says about the chain: the newest verification (an alarm when it failed),
 * the newest one that passed ("verified up to"), the newest signed checkpoint, and the entries
 * the sealer has not chained yet (counted now, not at the last verification).
 */
export async function getAuditIntegrity() {
  const d = db();
  const newest = (where?: SQL) =>
    d
      .select()
      .from(auditVerifications)
      .where(where)
      .orderBy(desc(auditVerifications.finishedAt), desc(auditVerifications.id))
      .limit(1);
  const [[last], [lastOk], [checkpoint], unsealed] = await Promise.all([
    newest(),
    newest(eq(auditVerifications.ok, true)),
    d.select().from(auditCheckpoints).orderBy(desc(auditCheckpoints.seq), desc(auditCheckpoints.id)).limit(1),
    unsealedEntries(d),
  ]);
  // Sealed after the newest verification reached its end: chained, not yet verified. Read now, so
  // the banner is true at this minute and not only as of the last hourly run.
  const [{ sinceVerified }] = await d
    .select({ sinceVerified: sql<number>`count(*)::int` })
    .from(auditLog)
    .where(sql`${auditLog.seq} > ${last?.verifiedSeq ?? 0}`);
  return {
    last: last ?? null,
    lastOk: lastOk ?? null,
    sinceVerified,
    lastFailure: last && !last.ok ? last : null,
    checkpoint: checkpoint ?? null,
    unsealed,
  };
}
