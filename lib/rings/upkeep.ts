import { sql } from 'drizzle-orm';
import type { Tx } from '@/lib/db/client';
import type { linkKeys } from '@/lib/db/schema';
import { emitEvent } from '@/lib/webhooks/outbox';
import { WEAK_LINK_CUTOFF } from './kinds';

/**
 * Rings are the connected components of the strong-link graph, kept in ingest's transaction:
 * a new execution that shares a value with members of two rings merges them (union), and an
 * execution that leaves (purged, or its values changed) has its ring's component recomputed from
 * the remaining members, which may split it. Nothing walks the whole graph on a read.
 */

/** A ring this size or larger is announced once with `ring.detected`. */
export const RING_DETECTED_SIZE = 5;

type KeyRow = typeof linkKeys.$inferInsert;
const STRONG = sql`v.executions between 2 and ${WEAK_LINK_CUTOFF}`;

/** Counts each hashed value's executions up (+1) or down (-1); returns the values that crossed the cut-off. */
async function countValues(tx: Tx, keys: Array<{ kind: string; keyHash: string }>, delta: 1 | -1) {
  if (!keys.length) return [] as Array<{ kind: string; key_hash: string }>;
  const kinds = keys.map((k) => k.kind);
  const hashes = keys.map((k) => k.keyHash);
  const res = await tx.execute<{ kind: string; key_hash: string }>(sql`
    with d as (
      select kind, key_hash, count(*)::int * ${delta}::int as n
      from unnest(${sql.param(kinds)}::text[], ${sql.param(hashes)}::text[]) as x(kind, key_hash)
      group by 1, 2
    ), up as (
      insert into link_values (kind, key_hash, executions)
      select kind, key_hash, n from d
      on conflict (kind, key_hash) do update set executions = link_values.executions + excluded.executions
      returning kind, key_hash, executions
    )
    select up.kind, up.key_hash from up join d using (kind, key_hash)
    where (up.executions > ${WEAK_LINK_CUTOFF}) <> (up.executions - d.n > ${WEAK_LINK_CUTOFF})`);
  return res.rows;
}

/** Time spent in ring upkeep by this process (read by `npm run bench:rings`, which reports it per execution). */
export const upkeepTime = { ms: 0, executions: 0 };

/**
 * A fault the benchmark induces (`npm run bench:rings -- --break=skip-merge`) to show that its
 * self-check catches a broken upkeep: rings that should merge stay apart. Never set by the app.
 */
export const upkeepFaults = { skipMerge: false };

/**
 * Replaces the link keys of `ids` with `rows` and keeps rings in step. Called by ingest for the
 * executions it wrote (rows empty for one whose personal data is purged) and by purge.
 */
export async function replaceLinkKeys(tx: Tx, ids: string[], rows: KeyRow[]): Promise<void> {
  if (!ids.length) return;
  const t0 = performance.now();
  try {
    await upkeep(tx, ids, rows);
  } finally {
    upkeepTime.ms += performance.now() - t0;
    upkeepTime.executions += ids.length;
  }
}

async function upkeep(tx: Tx, ids: string[], rows: KeyRow[]): Promise<void> {
  // One ring writer at a time until commit: two ingests joining the same ring at once would each
  // count its members from their own snapshot and leave a wrong size (seen in the browser test
  // while a backfill and callbacks ingested side by side).
  await tx.execute(sql`select pg_advisory_xact_lock(72737025)`);
  const old = await tx.execute<{ execution_id: string; kind: string; key_hash: string }>(
    sql`delete from link_keys where execution_id = any(${sql.param(ids)}::uuid[]) returning execution_id, kind, key_hash`,
  );
  const sig = (r: { kind: string; keyHash: string }) => `${r.kind}\0${r.keyHash}`;
  const before = new Map<string, Set<string>>();
  for (const r of old.rows)
    before.set(
      r.execution_id,
      (before.get(r.execution_id) ?? new Set()).add(sig({ kind: r.kind, keyHash: r.key_hash })),
    );
  const after = new Map<string, Set<string>>();
  for (const r of rows) after.set(r.executionId, (after.get(r.executionId) ?? new Set()).add(sig(r)));
  // Only values that came or went change the counts; an identical re-fetch writes nothing else.
  const same = (a?: Set<string>, b?: Set<string>) =>
    (a?.size ?? 0) === (b?.size ?? 0) && [...(a ?? [])].every((x) => b?.has(x));
  const changedIds = ids.filter((id) => !same(before.get(id), after.get(id)));
  const gone = old.rows
    .filter((r) => !after.get(r.execution_id)?.has(sig({ kind: r.kind, keyHash: r.key_hash })))
    .map((r) => ({ kind: r.kind, keyHash: r.key_hash }));
  const added = rows.filter((r) => !before.get(r.executionId)?.has(sig(r)));
  if (rows.length) {
    const cols = ['execution_id', 'kind', 'key_hash', 'evidence'] as const;
    await tx.execute(sql`
      insert into link_keys (${sql.raw(cols.join(', '))})
      select * from unnest(${sql.param(rows.map((r) => r.executionId))}::uuid[], ${sql.param(rows.map((r) => r.kind))}::text[],
        ${sql.param(rows.map((r) => r.keyHash))}::text[], ${sql.param(rows.map((r) => r.evidence))}::text[])
      on conflict do nothing`);
  }
  const crossed = [...(await countValues(tx, gone, -1)), ...(await countValues(tx, added, 1))];
  if (!changedIds.length && !crossed.length) {
    await refreshRings(tx, await ringsOf(tx, ids));
    return;
  }

  // Executions whose values went away, and values that became weak, may split a ring: recompute
  // those rings from their members. Values that became strong again join whoever holds them.
  const losing = changedIds.filter((id) => [...(before.get(id) ?? [])].some((s) => !after.get(id)?.has(s)));
  const toRecompute = new Set(await ringsOf(tx, losing));
  const crossedHolders: string[] = [];
  if (crossed.length) {
    const h = await tx.execute<{ execution_id: string; ring_id: number | null }>(sql`
      select k.execution_id, m.ring_id from link_keys k left join ring_members m using (execution_id)
      where (k.kind, k.key_hash) in (select * from unnest(${sql.param(crossed.map((c) => c.kind))}::text[], ${sql.param(crossed.map((c) => c.key_hash))}::text[]))`);
    for (const r of h.rows) {
      crossedHolders.push(r.execution_id);
      if (r.ring_id !== null) toRecompute.add(Number(r.ring_id));
    }
  }
  await recomputeRings(tx, [...toRecompute], [...new Set([...changedIds, ...crossedHolders])]);
}

async function ringsOf(tx: Tx, ids: string[]): Promise<number[]> {
  if (!ids.length) return [];
  const r = await tx.execute<{ ring_id: number }>(
    sql`select distinct ring_id from ring_members where execution_id = any(${sql.param(ids)}::uuid[])`,
  );
  return r.rows.map((x) => Number(x.ring_id));
}

/** Detaches the members of `ringIds` and joins them again (with `alsoJoin`), reusing the ring ids. */
async function recomputeRings(tx: Tx, ringIds: number[], alsoJoin: string[]): Promise<void> {
  let members: string[] = [];
  if (ringIds.length) {
    const r = await tx.execute<{ execution_id: string }>(
      sql`delete from ring_members where ring_id = any(${sql.param(ringIds)}::bigint[]) returning execution_id`,
    );
    members = r.rows.map((x) => x.execution_id);
  }
  await joinRings(tx, [...new Set([...members, ...alsoJoin])], ringIds);
}

/**
 * Union of `ids` with everything they share a strong value with. Components that touch several
 * rings merge into the largest; components of loose executions get a ring (one of `reuse` first,
 * largest component first, so a split keeps its id on the bigger part).
 */
async function joinRings(tx: Tx, ids: string[], reuse: number[] = []): Promise<void> {
  if (!ids.length && !reuse.length) return;
  const edges = ids.length
    ? (
        await tx.execute<{ a: string; b: string; ring_a: number | null; ring_b: number | null }>(sql`
      select a.execution_id as a, b.execution_id as b, ma.ring_id as ring_a, mb.ring_id as ring_b
      from link_keys a
      join link_values v on v.kind = a.kind and v.key_hash = a.key_hash and ${STRONG}
      join link_keys b on b.kind = a.kind and b.key_hash = a.key_hash and b.execution_id <> a.execution_id
      left join ring_members ma on ma.execution_id = a.execution_id
      left join ring_members mb on mb.execution_id = b.execution_id
      where a.execution_id = any(${sql.param(ids)}::uuid[])`)
      ).rows
    : [];
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let p = parent.get(x) ?? x;
    if (p !== x) {
      p = find(p);
      parent.set(x, p);
    }
    return p;
  };
  const union = (a: string, b: string) => {
    const ra = find(a),
      rb = find(b);
    if (ra !== rb) parent.set(ra, rb);
  };
  const ringOfExec = new Map<string, number>();
  for (const e of edges) {
    union(`e:${e.a}`, `e:${e.b}`);
    if (e.ring_a !== null) ringOfExec.set(e.a, Number(e.ring_a));
    if (e.ring_b !== null) ringOfExec.set(e.b, Number(e.ring_b));
  }
  for (const [x, r] of ringOfExec) union(`e:${x}`, `r:${r}`);

  const comps = new Map<string, { rings: Set<number>; loose: Set<string> }>();
  const nodes = new Set<string>();
  for (const e of edges) nodes.add(`e:${e.a}`).add(`e:${e.b}`);
  for (const r of ringOfExec.values()) nodes.add(`r:${r}`);
  for (const n of nodes) {
    const root = find(n);
    const c = comps.get(root) ?? { rings: new Set(), loose: new Set() };
    comps.set(root, c);
    if (n.startsWith('r:')) c.rings.add(Number(n.slice(2)));
    else if (!ringOfExec.has(n.slice(2))) c.loose.add(n.slice(2));
  }

  const sizes = new Map<number, number>();
  const allRings = [...new Set([...ringOfExec.values()])];
  if (allRings.length) {
    const r = await tx.execute<{ id: number; size: number }>(
      sql`select id, size from rings where id = any(${sql.param(allRings)}::bigint[])`,
    );
    for (const x of r.rows) sizes.set(Number(x.id), x.size);
  }
  // Decide every component's ring in memory, then write them all in four set-based statements:
  // a page of 100 touches dozens of components, and a statement per component was most of upkeep's time.
  const touched = new Set<number>();
  const free = [...reuse];
  const ordered = [...comps.values()]
    .filter((c) => c.rings.size || c.loose.size >= 2)
    .sort((a, b) => b.loose.size - a.loose.size);
  const merged: Array<{ from: number; into: number }> = [];
  const survivors: Array<number | null> = [];
  for (const c of ordered) {
    if (c.rings.size) {
      const survivor = [...c.rings].sort((a, b) => (sizes.get(b) ?? 0) - (sizes.get(a) ?? 0) || a - b)[0];
      if (!upkeepFaults.skipMerge)
        for (const r of c.rings) if (r !== survivor) merged.push({ from: r, into: survivor });
      survivors.push(survivor);
    } else survivors.push(free.shift() ?? null);
  }
  if (merged.length) {
    await tx.execute(sql`
      update ring_members m set ring_id = x.into_id
      from unnest(${sql.param(merged.map((x) => x.from))}::bigint[], ${sql.param(merged.map((x) => x.into))}::bigint[]) as x(from_id, into_id)
      where m.ring_id = x.from_id`);
    await tx.execute(sql`delete from rings where id = any(${sql.param(merged.map((x) => x.from))}::bigint[])`);
  }
  const missing = survivors.filter((x) => x === null).length;
  if (missing) {
    const r = await tx.execute<{ id: number }>(sql`
      insert into rings (size, first_seen, last_seen) select 0, now(), now() from generate_series(1, ${missing})
      returning id`);
    const fresh = r.rows.map((x) => Number(x.id));
    for (let i = 0; i < survivors.length; i++) if (survivors[i] === null) survivors[i] = fresh.shift()!;
  }
  const joinIds: string[] = [];
  const joinRing: number[] = [];
  ordered.forEach((c, i) => {
    touched.add(survivors[i]!);
    for (const id of c.loose) {
      joinIds.push(id);
      joinRing.push(survivors[i]!);
    }
  });
  if (joinIds.length)
    await tx.execute(sql`
      insert into ring_members (execution_id, ring_id, created_at)
      select e.id, x.ring_id, e.created_at
      from unnest(${sql.param(joinIds)}::uuid[], ${sql.param(joinRing)}::bigint[]) as x(id, ring_id)
      join executions e on e.id = x.id
      on conflict (execution_id) do update set ring_id = excluded.ring_id`);
  // Reused ids left without a component are rings that fell apart.
  for (const r of free) touched.add(r);
  // A ring that only gains members here (no merge, not being recomputed, none of this call's
  // executions already in it) takes the joiners' figures added to its own: recounting a ring of
  // two thousand members was most of a page's upkeep. Every other ring is recounted whole.
  const reused = new Set(reuse);
  const alreadyIn = new Set(ids.map((id) => ringOfExec.get(id)).filter((r): r is number => r !== undefined));
  const grown = new Set<number>();
  ordered.forEach((c, i) => {
    const ring = survivors[i]!;
    if (c.rings.size === 1 && c.loose.size && !reused.has(ring) && !alreadyIn.has(ring)) grown.add(ring);
  });
  await growRings(
    tx,
    joinIds.filter((_, i) => grown.has(joinRing[i])),
    joinRing.filter((r) => grown.has(r)),
  );
  await refreshRings(
    tx,
    [...touched].filter((r) => !grown.has(r)),
  );
}

/**
 * Adds the figures of executions that just joined (`ids[i]` into `ringIds[i]`) to their rings:
 * size, first and last seen, rejected and FRAUD counts, the link kinds of their strong values,
 * then the score from the new counts (its 7-day share from the members' index range). The same
 * figures `refreshRings` counts from every member; `tests/integration/rings.test.ts` holds the two equal.
 */
async function growRings(tx: Tx, ids: string[], ringIds: number[]): Promise<void> {
  if (!ids.length) return;
  await tx.execute(sql`
    with j as (
      select * from unnest(${sql.param(ids)}::uuid[], ${sql.param(ringIds)}::bigint[]) as x(id, ring_id)
    ), d as (
      select j.ring_id, count(*)::int as n, min(e.created_at) as f, max(e.created_at) as l,
        count(*) filter (where e.decision_type = 'REJECTED')::int as rej,
        count(*) filter (where e.feedback_status = 'FRAUD')::int as fr
      from j join executions e on e.id = j.id group by 1
    ), k as (
      select j.ring_id, array_agg(distinct lk.kind) as kinds
      from j join link_keys lk on lk.execution_id = j.id
      join link_values v on v.kind = lk.kind and v.key_hash = lk.key_hash and ${STRONG}
      group by 1
    ), g as (
      select d.ring_id,
        (select count(*) from ring_members m where m.ring_id = d.ring_id and m.created_at > now() - interval '7 days')::int as g7
      from d
    ), t as (
      select r.id as ring_id, r.size + d.n as n, r.rejected + d.rej as rej, r.fraud + d.fr as fr, g.g7,
        least(r.first_seen, d.f) as f, greatest(r.last_seen, d.l) as l,
        (select coalesce(array_agg(distinct x order by x), '{}') from unnest(r.link_kinds || coalesce(k.kinds, '{}')) as x) as kinds
      from rings r join d on d.ring_id = r.id join g on g.ring_id = r.id left join k on k.ring_id = r.id
    )
    update rings r set ${SET_FIGURES} from t where r.id = t.ring_id`);
  await announceRings(tx, [...new Set(ringIds)]);
}

/**
 * The SET of a ring's figures from a row `t` (n, f, l, rej, fr, g7, kinds), shared by a recount and
 * a growth so both score a ring and reopen a dismissed one by the same rule (the score is below).
 */
const SET_FIGURES = sql`size = t.n, first_seen = t.f, last_seen = t.l, rejected = t.rej, fraud = t.fr,
  link_kinds = t.kinds,
  score = round((40 * least(1, ln(t.n) / ln(50)) + 25 * t.rej::real / t.n + 25 * t.fr::real / t.n + 10 * t.g7::real / t.n)::numeric, 1),
  status = case when r.status = 'dismissed' and t.n > coalesce(r.dismissed_size, 0) then 'open' else r.status end,
  updated_at = now()`;

/**
 * Recomputes the figures of `ringIds` from their members, drops rings left with fewer than two,
 * reopens a dismissed ring that grew past its size at dismissal, and announces new large rings.
 *
 * Score (0-100): size up to 40 (log scale, full at 50 members), the share rejected 25, the share
 * confirmed FRAUD 25, the share created in the last 7 days 10.
 */
export async function refreshRings(tx: Tx, ringIds: number[]): Promise<void> {
  if (!ringIds.length) return;
  const ids = sql.param(ringIds);
  await tx.execute(sql`delete from rings r where r.id = any(${ids}::bigint[])
    and (select count(*) from ring_members m where m.ring_id = r.id) < 2`);
  await tx.execute(sql`
    with s as (
      select m.ring_id, count(*)::int as n, min(e.created_at) as f, max(e.created_at) as l,
        count(*) filter (where e.decision_type = 'REJECTED')::int as rej,
        count(*) filter (where e.feedback_status = 'FRAUD')::int as fr,
        count(*) filter (where m.created_at > now() - interval '7 days')::int as g7
      from ring_members m join executions e on e.id = m.execution_id
      where m.ring_id = any(${ids}::bigint[]) group by 1
    ), k as (
      select m.ring_id, array_agg(distinct lk.kind order by lk.kind) as kinds
      from ring_members m join link_keys lk on lk.execution_id = m.execution_id
      join link_values v on v.kind = lk.kind and v.key_hash = lk.key_hash and ${STRONG}
      where m.ring_id = any(${ids}::bigint[]) group by 1
    )
    update rings r set ${SET_FIGURES}
    from (select s.*, coalesce(k.kinds, '{}') as kinds from s left join k on k.ring_id = s.ring_id) t
    where r.id = t.ring_id`);
  await announceRings(tx, ringIds);
}

/** Announces with `ring.detected` each of `ringIds` that reached the size to be announced and was not announced yet. */
async function announceRings(tx: Tx, ringIds: number[]): Promise<void> {
  if (!ringIds.length) return;
  const ids = sql.param(ringIds);
  const fresh = await tx.execute<{
    id: number;
    size: number;
    link_kinds: string[];
    rejected: number;
    fraud: number;
    score: number;
    first_seen: Date | string;
    last_seen: Date | string;
  }>(sql`
    update rings set announced_at = now()
    where id = any(${ids}::bigint[]) and announced_at is null and size >= ${RING_DETECTED_SIZE}
    returning id, size, link_kinds, rejected, fraud, score, first_seen, last_seen`);
  const iso = (d: Date | string) => new Date(d).toISOString();
  for (const r of fresh.rows)
    await emitEvent(tx, 'ring.detected', {
      ringId: String(r.id),
      size: r.size,
      linkKinds: r.link_kinds,
      rejected: r.rejected,
      fraud: r.fraud,
      score: Number(r.score),
      firstSeen: iso(r.first_seen),
      lastSeen: iso(r.last_seen),
      detectedAt: new Date().toISOString(),
    });
}
