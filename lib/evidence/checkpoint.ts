import 'server-only';
import { desc } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { auditChainHead, auditCheckpoints } from '@/lib/db/schema';
import { sealAuditLog } from './seal';
import { signCheckpoint, type SigningKey } from './signing';
import { recordVerification, verifyChain, type VerifyResult } from './verify';

export interface CheckpointOutcome {
  /** The checkpoint written, or null (nothing new, or the stretch since the last one did not verify). */
  checkpoint: { id: number; seq: number; hash: string } | null;
  verification: VerifyResult;
}

/**
 * Seals what has been committed, then signs the chain's head, after checking the stretch since
 * the last checkpoint (so a signature never vouches for entries that were already altered). A
 * stretch that does not verify is recorded as a failed verification and gets no checkpoint.
 */
export async function writeCheckpoint(db: Db, key: SigningKey): Promise<CheckpointOutcome> {
  const startedAt = new Date();
  await sealAuditLog(db);
  const [head] = await db.select().from(auditChainHead).limit(1);
  const [last] = await db.select().from(auditCheckpoints).orderBy(desc(auditCheckpoints.seq)).limit(1);
  const verification = await verifyChain(db, { fromSeq: last ? last.seq : 1, toSeq: head?.seq ?? 0, key });
  if (!verification.ok) {
    await recordVerification(db, verification, 'job', startedAt);
    return { checkpoint: null, verification };
  }
  if (!head || head.seq === 0 || (last && last.seq === head.seq)) return { checkpoint: null, verification };
  const signedAt = new Date();
  const signature = signCheckpoint(key, { seq: head.seq, hash: head.hash, signedAt });
  const [row] = await db
    .insert(auditCheckpoints)
    .values({ seq: head.seq, hash: head.hash, signedAt, keyId: key.keyId, signature })
    .returning({ id: auditCheckpoints.id, seq: auditCheckpoints.seq, hash: auditCheckpoints.hash });
  return { checkpoint: row, verification };
}

/** The scheduled verification of the whole chain (sealed first), recorded for the audit page. */
export async function runVerification(db: Db, key: SigningKey | null, source: 'job' | 'cli' = 'job') {
  const startedAt = new Date();
  await sealAuditLog(db);
  const r = await verifyChain(db, { key });
  await recordVerification(db, r, source, startedAt);
  return r;
}
