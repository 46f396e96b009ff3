import 'server-only';
import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';

/**
 * Rows per sealing transaction. Small, because on PGlite a transaction holds the one database
 * for every connection: 1,000 rows take about 0.25 s there under load (0.1 s on Postgres), and
 * other requests run between two batches.
 */
const BATCH = 1_000;

/**
 * One batch in one statement: the oldest unsealed rows the statement can see (committed ones
 * only) take the next positions in id order, are chained onto the head with the migration's
 * aggregate (drizzle/0015_audit_sealing.sql), and the head moves to the last of them. The
 * update trigger lets each row be sealed exactly once.
 */
const sealBatch = (limit: number) => sql`
  with head as (select seq, decode(hash, 'hex') as h from audit_chain_head where id = 1),
  picked as (select * from audit_log where seq is null order by id limit ${limit}),
  numbered as (
    select p.*, head.seq + row_number() over (order by p.id) as n, head.h as start from picked p cross join head
  ),
  hashed as (
    select id, n, start, audit_chain_fold_from(start, sha256(convert_to(audit_canonical(n, at, actor_id, actor_email,
      action, target_type, target_id, outcome, ip, details), 'UTF8'))) over (order by n rows between unbounded preceding and current row) as h
    from numbered
  ),
  linked as (select id, n, h, coalesce(lag(h) over (order by n), start) as p from hashed),
  sealed as (
    update audit_log a set seq = l.n, prev_hash = encode(l.p, 'hex'), hash = encode(l.h, 'hex')
    from linked l where a.id = l.id returning a.seq, a.hash, a.at
  )
  update audit_chain_head c set seq = s.seq, hash = s.hash, at = s.at
  from (select seq, hash, at from sealed order by seq desc limit 1) s
  where c.id = 1
  returning (select count(*) from sealed)::int as sealed`;

export interface SealResult {
  /** Entries given a position now. */
  sealed: number;
  /** False when another process was sealing and `wait` was off: nothing was done. */
  ran: boolean;
}

/**
 * Seals every entry committed so far. Why later and not at insert: a position given at insert
 * must be held until the inserting transaction commits, so every audited transaction waited for
 * the one before it; here inserts take no lock at all. Why this cannot fork or leave holes: one
 * sealer at a time holds the head's row lock, positions are only ever given after the head, a
 * rolled-back insert is never visible to it, and `audit_log_seq_key` is unique besides.
 *
 * The lock is taken in a statement of its own so that the sealing statement's snapshot, taken
 * after it, sees what the previous sealer committed. `wait: false` (the worker's timer) skips the
 * round when another process is sealing; verify, checkpoint, export and the case report wait.
 */
export async function sealAuditLog(db: Db, o: { wait?: boolean; batch?: number } = {}): Promise<SealResult> {
  const batch = o.batch ?? BATCH;
  const result: SealResult = { sealed: 0, ran: true };
  // Most rounds find nothing: a read of the small partial index, not a row lock (which would
  // write the head's page, and WAL, every second on an idle database).
  const pending = await db.$client.query('select 1 from audit_log where seq is null limit 1');
  if (!pending.rowCount) return result;
  for (;;) {
    const n = await db.transaction(async (tx) => {
      const head = await tx.execute(
        o.wait === false
          ? sql`select seq from audit_chain_head where id = 1 for update skip locked`
          : sql`select seq from audit_chain_head where id = 1 for update`,
      );
      if (!head.rows.length) return null;
      const r = await tx.execute(sealBatch(batch));
      return r.rows.length ? Number((r.rows[0] as { sealed: number }).sealed) : 0;
    });
    if (n === null) return { sealed: result.sealed, ran: false };
    result.sealed += n;
    if (n < batch) return result;
  }
}

/** How many entries wait for the sealer, and since when (the oldest one's time). */
export async function unsealedEntries(db: Db): Promise<{ count: number; oldestAt: Date | null }> {
  const r = await db.$client.query<{ n: number; oldest: Date | null }>(
    'select count(*)::int as n, min(at) as oldest from audit_log where seq is null',
  );
  return { count: r.rows[0].n, oldestAt: r.rows[0].oldest };
}
