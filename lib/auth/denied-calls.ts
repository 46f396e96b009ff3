import 'server-only';
import { sql } from 'drizzle-orm';
import { audit } from '@/lib/audit';
import { db, type Db } from '@/lib/db/client';

/**
 * Calls refused to callers nobody knows: a bad API key, a session cookie that does not verify.
 * Each used to be one entry of the append-only audit log, so anyone on the network could grow it
 * without bound (60 bad keys, 60 rows: issue 19, item 7). They are counted instead, per address,
 * minute and kind, in one upsert per call; once a minute is over, `flushDeniedCalls` writes one
 * audit entry per address and minute with the counts. The log stays append-only and hash-chained:
 * no entry is ever updated, and a count is written once, when it is final.
 *
 * Calls by a known user or key (a role refused, a key over its limit) are still audited one by one:
 * they name someone, and their number is bounded by the guards that refuse them.
 */
export type DeniedCallKind = 'api_key' | 'session_cookie';

export const DENIED_CALLS_ACTION = 'access.denied_unknown';

export async function countDeniedCall(kind: DeniedCallKind, ip: string | null): Promise<void> {
  await db().execute(sql`
    insert into denied_call_counts as d (ip, minute, kind, count)
    values (${ip ?? ''}, date_trunc('minute', now()), ${kind}, 1)
    on conflict (ip, minute, kind) do update set count = d.count + 1`);
}

/**
 * One audit entry per address and finished minute, in the transaction that removes its counts, so
 * a count is recorded exactly once even with several workers flushing. Returns the entries written.
 */
export async function flushDeniedCalls(database: Db): Promise<number> {
  return database.transaction(async (tx) => {
    const { rows } = await tx.execute<{ ip: string; minute: string; total: number; calls: Record<string, number> }>(sql`
      with gone as (
        delete from denied_call_counts where minute < date_trunc('minute', now())
        returning ip, minute, kind, count
      )
      select ip, to_char(minute at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI"Z"') as minute,
             sum(count)::int as total, jsonb_object_agg(kind, count) as calls
        from gone group by ip, minute order by minute, ip`);
    for (const r of rows)
      await audit(
        {
          action: DENIED_CALLS_ACTION,
          actorEmail: null,
          outcome: 'denied',
          ip: r.ip || null,
          details: { minute: r.minute, count: r.total, calls: r.calls },
        },
        tx,
      );
    return rows.length;
  });
}
