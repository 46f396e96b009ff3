import 'server-only';
import { sql } from 'drizzle-orm';
import { db } from '@/lib/db/client';

export interface RingTrendDay {
  day: string;
  formed: number;
  grew: number;
}
export interface RingTrends {
  days: RingTrendDay[];
  /** Rings formed in the last 24 hours and rings that gained members in them. */
  formed24h: number;
  grew24h: number;
  /** Set when the last 24 hours are far above the 13 days before (mean + 3 sd, and at least 3). */
  spike: { count: number; mean: number; sd: number } | null;
}

/**
 * How rings form: per day of the last 14, rings that formed (their second member arrived) and
 * rings that grew. Only rings seen in the window are read; each one's formation is an index probe.
 */
export async function getRingTrends(): Promise<RingTrends> {
  const r = await db().execute<{ day: string; formed: number; grew: number; formed24: number; grew24: number }>(sql`
    with active as (
      select r.id,
        (select m.created_at from ring_members m where m.ring_id = r.id order by m.created_at offset 1 limit 1) as formed
      from rings r where r.last_seen > now() - interval '14 days'
    ), grew as (
      select m.ring_id, date_trunc('day', m.created_at) as day, max(m.created_at) as at
      from ring_members m join active a on a.id = m.ring_id
      where m.created_at > now() - interval '14 days' and m.created_at > a.formed
      group by 1, 2
    ), days as (
      select generate_series(date_trunc('day', now()) - interval '13 days', date_trunc('day', now()), interval '1 day') as day
    )
    select to_char(d.day, 'YYYY-MM-DD') as day,
      (select count(*)::int from active a where date_trunc('day', a.formed) = d.day) as formed,
      (select count(*)::int from grew g where g.day = d.day) as grew,
      (select count(*)::int from active a where a.formed > now() - interval '24 hours') as formed24,
      (select count(distinct g.ring_id)::int from grew g where g.at > now() - interval '24 hours') as grew24
    from days d order by d.day`);
  const days = r.rows.map((x) => ({ day: x.day, formed: x.formed, grew: x.grew }));
  const formed24h = r.rows[0]?.formed24 ?? 0;
  const grew24h = r.rows[0]?.grew24 ?? 0;
  const before = days.slice(0, -1).map((d) => d.formed + d.grew);
  const mean = before.reduce((a, b) => a + b, 0) / Math.max(1, before.length);
  const sd = Math.sqrt(before.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, before.length));
  const count = formed24h + grew24h;
  return { days, formed24h, grew24h, spike: count >= 3 && count > mean + 3 * sd ? { count, mean, sd } : null };
}
