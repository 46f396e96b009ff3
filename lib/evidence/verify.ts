import 'server-only';
import type { Db } from '@/lib/db/client';
import { auditVerifications } from '@/lib/db/schema';
import { unsealedEntries } from './seal';
import { entryHash, GENESIS_HASH, STORED_ENTRY_SQL, type ChainFailure } from './chain';
import { entryFromRow } from './export-format';
import { checkpointSignatureValid, type SigningKey } from './signing';

/** Rows per round trip. 20,000 keeps one batch near 10 MB and 50 round trips per million. */
const BATCH = 20_000;

export interface VerifyOptions {
  /** Walk from the first entry at or after this time (by position in the chain). */
  from?: Date;
  /** ... to the last entry before this time. */
  to?: Date;
  /** Or by position: entries fromSeq..toSeq. */
  fromSeq?: number;
  toSeq?: number;
  /** Checks checkpoint signatures with this key; without it they are counted as not checked. */
  key?: SigningKey | null;
  /** Called after each batch (a progress line in the command). */
  onProgress?: (entries: number, lastSeq: number) => void;
}

export interface VerifyResult {
  ok: boolean;
  entries: number;
  checkpoints: number;
  checkpointsUnchecked: number;
  /** The last entry that matched (everything before it in the range matched too). */
  verifiedSeq: number | null;
  verifiedAt: Date | null;
  firstSeq: number | null;
  failure: ChainFailure | null;
  /**
   * Entries not yet sealed when the walk ended (written in the last seconds, or in a transaction
   * still open when the sealer last ran): outside the chain, so neither verified nor failed.
   */
  unsealed: number;
  oldestUnsealedAt: Date | null;
  ms: number;
}

const SELECT_ENTRIES = `select ${STORED_ENTRY_SQL}
  from audit_log a where a.seq > $1 and a.seq <= $2 order by a.seq limit $3`;

type Row = (string | null)[];

/** Whatever the chain may hold, the timestamp text it stores is a UTC instant. */
const parseAt = (s: string) => new Date(s.replace(/(\.\d{3})\d*Z$/, '$1Z'));

async function seqBounds(db: Db, o: VerifyOptions): Promise<{ from: number; to: number }> {
  const c = db.$client;
  let from = o.fromSeq ?? 1;
  let to = o.toSeq ?? Number.MAX_SAFE_INTEGER;
  if (o.from) {
    const r = await c.query(
      'select seq::text from audit_log where at >= $1 and seq is not null order by at, id limit 1',
      [o.from],
    );
    from = r.rows[0] ? Number(r.rows[0].seq) : Number.MAX_SAFE_INTEGER;
  }
  if (o.to) {
    const r = await c.query(
      'select seq::text from audit_log where at < $1 and seq is not null order by at desc, id desc limit 1',
      [o.to],
    );
    to = r.rows[0] ? Number(r.rows[0].seq) : 0;
  }
  return { from, to };
}

/**
 * Walks the sealed chain in position order, in batches read while the previous one is hashed, and
 * counts the unsealed tail apart (callers seal first: lib/evidence/seal.ts). Stops at the first
 * entry that does not match: an edited entry (its content no longer gives
 * its hash), a removed one (a gap in the positions, or a previous hash that is not the one
 * before), or a checkpoint whose signature or hash does not hold.
 */
export async function verifyChain(db: Db, o: VerifyOptions = {}): Promise<VerifyResult> {
  const started = performance.now();
  const c = db.$client;
  const { from, to } = await seqBounds(db, o);
  const result: VerifyResult = {
    ok: true,
    entries: 0,
    checkpoints: 0,
    checkpointsUnchecked: 0,
    verifiedSeq: null,
    verifiedAt: null,
    firstSeq: null,
    failure: null,
    unsealed: 0,
    oldestUnsealedAt: null,
    ms: 0,
  };
  let lastAt: string | null = null;
  const done = async (failure: ChainFailure | null) => {
    const tail = await unsealedEntries(db);
    result.unsealed = tail.count;
    result.oldestUnsealedAt = tail.oldestAt;
    result.verifiedAt = lastAt ? parseAt(lastAt) : null;
    result.ok = !failure;
    result.failure = failure;
    result.ms = performance.now() - started;
    return result;
  };

  // Signed checkpoints within the range: their hash must be the entry's at that position.
  const cps = (
    await c.query(
      `select id::text, seq::text, hash, signed_at, key_id, signature from audit_checkpoints c
       where c.seq >= $1 and c.seq <= $2 order by c.seq, c.id`,
      [from, to],
    )
  ).rows.map((r) => ({
    id: Number(r.id),
    seq: Number(r.seq),
    hash: r.hash as string,
    signedAt: r.signed_at as Date,
    keyId: r.key_id as string,
    signature: r.signature as string,
  }));
  for (const cp of cps) {
    if (!o.key) {
      result.checkpointsUnchecked++;
      continue;
    }
    if (cp.keyId !== o.key.keyId || !checkpointSignatureValid(o.key, cp, cp.signature))
      return done({
        seq: cp.seq,
        id: null,
        checkpointId: cp.id,
        reason:
          cp.keyId !== o.key.keyId
            ? `checkpoint ${cp.id} is signed by key ${cp.keyId}, not by the configured key ${o.key.keyId}`
            : `checkpoint ${cp.id} has a signature that does not verify`,
      });
  }
  const cpBySeq = new Map<number, typeof cps>();
  for (const cp of cps) cpBySeq.set(cp.seq, [...(cpBySeq.get(cp.seq) ?? []), cp]);

  // The link into the range: the entry before it, or the genesis.
  let prevSeq = from - 1;
  let prevHash = GENESIS_HASH;
  if (from > 1) {
    const r = await c.query('select hash from audit_log where seq = $1', [from - 1]);
    if (r.rows[0]) prevHash = r.rows[0].hash;
    else prevHash = '';
  }

  const read = (after: number) =>
    c.query<Row>({ text: SELECT_ENTRIES, values: [after, to, BATCH], rowMode: 'array' }).then((r) => r.rows);
  let next = from <= to ? read(from - 1) : Promise.resolve<Row[]>([]);
  for (;;) {
    const rows = await next;
    if (rows.length === 0) break;
    const lastSeqOfBatch = Number(rows[rows.length - 1][0]);
    next = rows.length === BATCH ? read(lastSeqOfBatch) : Promise.resolve([]);
    for (const r of rows) {
      const seq = Number(r[0]);
      const id = Number(r[1]);
      const f = entryFromRow(r);
      const storedPrev = f.prevHash;
      const storedHash = f.hash;
      if (result.firstSeq === null) result.firstSeq = seq;
      if (seq !== prevSeq + 1) {
        await next.catch(() => undefined);
        return done({
          seq,
          id,
          reason:
            prevSeq + 1 === seq - 1
              ? `the entry before it (position ${prevSeq + 1}) is missing: removed`
              : `the entries at positions ${prevSeq + 1} to ${seq - 1} before it are missing: removed`,
        });
      }
      if (storedPrev !== prevHash) {
        await next.catch(() => undefined);
        return done({
          seq,
          id,
          reason: prevHash
            ? 'its previous hash is not the hash of the entry before it: an entry before it was replaced'
            : `the entry before it (position ${seq - 1}) is missing: removed`,
        });
      }
      if (entryHash(storedPrev, f) !== storedHash) {
        await next.catch(() => undefined);
        return done({ seq, id, reason: 'its content does not give its hash: the entry was changed' });
      }
      for (const cp of cpBySeq.get(seq) ?? []) {
        result.checkpoints++;
        if (cp.hash !== storedHash) {
          await next.catch(() => undefined);
          return done({
            seq,
            id,
            checkpointId: cp.id,
            reason: `signed checkpoint ${cp.id} recorded another hash at this position: the chain was rewritten`,
          });
        }
      }
      prevSeq = seq;
      prevHash = storedHash;
      result.entries++;
      result.verifiedSeq = seq;
      lastAt = f.at;
    }
    o.onProgress?.(result.entries, prevSeq);
  }
  // A checkpoint past the last entry: the end of the chain was cut off.
  const beyond = cps.filter((cp) => cp.seq > prevSeq);
  if (beyond.length)
    return done({
      seq: beyond[0].seq,
      id: null,
      checkpointId: beyond[0].id,
      reason: `signed checkpoint ${beyond[0].id} vouches for position ${beyond[0].seq}, but the log ends at ${prevSeq}: entries were removed`,
    });
  return done(null);
}

/** Keeps what a verification found, for the audit page. */
export async function recordVerification(db: Db, r: VerifyResult, source: 'job' | 'cli', startedAt: Date) {
  await db.insert(auditVerifications).values({
    startedAt,
    finishedAt: new Date(),
    ok: r.ok,
    source,
    entries: r.entries,
    checkpoints: r.checkpoints,
    verifiedSeq: r.verifiedSeq,
    verifiedAt: r.verifiedAt,
    failure: r.failure,
  });
}
