/**
 * What the trends rollup adds to ingest per execution (`npm run bench:trends`), measured the ways
 * ingest calls it on a database that already holds the rollup of a million executions:
 *
 * - a page: `ingestMany` passes a page's changes in one call, in the page's transaction (a
 *   backfill, a poll, a reconciliation);
 * - alone: one execution's change in a transaction of its own, committed (a fetch after a
 *   callback, "Refresh now");
 *
 * each timed inside its transaction, as ingest's share of it (the commit is ingest's own cost);
 * - the naive baseline: every execution's change applied by a call of its own, one after another
 *   in one transaction (what a page cost before changes were summed per rollup row).
 *
 * Each change is a new execution (every rollup row it touches gets +1) and is reverted afterwards
 * (-1, rows back at zero dropped), so the database ends as it began.
 *
 * Besides the wall time, each way reports the CPU time it cost: the database backend's (from
 * /proc, the server is local) plus this process's. On a machine busy with other work the wall
 * time is mostly waiting for a core; the CPU time is what the rollup itself costs.
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Client } from 'pg';
import { createDb, type Db, type Tx } from '@/lib/db/client';
import { applyRollupChanges, type RollupRow } from '@/lib/sync/rollup';

const PAGE = 100;

/** An execution's rollup fields and the names of the rules it matched (ingest passes both). */
type Sampled = RollupRow & { names: Array<[string, string | null]> };

async function newestExecutions(c: Client, n: number): Promise<Sampled[]> {
  const sample =
    await c.query(`select id, created_at, status, decision_type, decision_label, risk_score, definition_key, issuing_country, document_type,
      feedback_status, feedback_reason, capability_tags, array(select rule_id from rule_results r where r.execution_id = e.id and r.matched) as rules,
      array(select array[rule_id, rule_name] from rule_results r where r.execution_id = e.id and r.matched) as names
      from executions e order by created_at desc limit ${n}`);
  return sample.rows.map((r) => ({
    id: r.id,
    createdAt: r.created_at,
    status: r.status,
    decisionType: r.decision_type,
    decisionLabel: r.decision_label,
    riskScore: r.risk_score,
    definitionKey: r.definition_key,
    issuingCountry: r.issuing_country,
    documentType: r.document_type,
    feedbackStatus: r.feedback_status,
    feedbackReason: r.feedback_reason,
    capabilityTags: r.capability_tags,
    matchedRuleIds: r.rules,
    names: r.names,
  }));
}

/** Adds the rows to the rollup as ingest of new executions does. */
const add = (tx: Tx, rows: Sampled[]) =>
  applyRollupChanges(
    tx,
    rows.map((after) => ({ before: null, after })),
    rows.flatMap((r) => r.names),
  );
const removed = (rows: RollupRow[]) => rows.map((before) => ({ before, after: null }));

function median(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
function p95(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)];
}

export interface Way {
  /** Wall ms per execution: median (over pages, or over single executions) and p95. */
  p50: number;
  p95: number;
  /** CPU ms per execution, database backend plus this process, and the backend's alone. */
  cpu: number;
  dbCpu: number;
}
export interface Upkeep {
  page: Way;
  alone: Way;
  naive: Way;
  pageSize: number;
}

/** CPU ms used so far by the backend `pid` (utime + stime in clock ticks of 10 ms) and by this process. */
function cpuMs(pid: number): { db: number; client: number } {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const u = process.cpuUsage();
  return { db: (Number(f[11]) + Number(f[12])) * 10, client: (u.user + u.system) / 1000 };
}

export async function measureUpkeep(url: string, c: Client, pages = 4): Promise<Upkeep> {
  const rows = await newestExecutions(c, PAGE * pages);
  // One connection, so that one backend does (and is charged with) all the work.
  const db: Db = createDb(url, 1);
  try {
    const pid = Number((await db.$client.query('select pg_backend_pid() as pid')).rows[0].pid);
    const way = async (run: (wall: number[]) => Promise<void>, executions: number): Promise<Way> => {
      const wall: number[] = [];
      const cpu0 = cpuMs(pid);
      await run(wall);
      const cpu1 = cpuMs(pid);
      const dbCpu = (cpu1.db - cpu0.db) / executions;
      return { p50: median(wall), p95: p95(wall), cpu: dbCpu + (cpu1.client - cpu0.client) / executions, dbCpu };
    };
    const page = await way(async (wall) => {
      for (let i = 0; i < rows.length; i += PAGE) {
        const list = rows.slice(i, i + PAGE);
        await db.transaction(async (tx) => {
          const t0 = performance.now();
          await add(tx, list);
          wall.push((performance.now() - t0) / list.length);
        });
      }
    }, rows.length);
    for (let i = 0; i < rows.length; i += PAGE)
      await db.transaction((tx) => applyRollupChanges(tx, removed(rows.slice(i, i + PAGE))));

    const some = rows.slice(0, 100);
    const alone = await way(async (wall) => {
      for (const row of some)
        await db.transaction(async (tx) => {
          const t0 = performance.now();
          await add(tx, [row]);
          wall.push(performance.now() - t0);
        });
    }, some.length);
    await db.transaction((tx) => applyRollupChanges(tx, removed(some)));

    const naive = await way(async (wall) => {
      for (let i = 0; i < rows.length; i += PAGE) {
        const list = rows.slice(i, i + PAGE);
        await db.transaction(async (tx) => {
          const t0 = performance.now();
          for (const row of list) await add(tx, [row]);
          wall.push((performance.now() - t0) / list.length);
        });
      }
    }, rows.length);
    for (let i = 0; i < rows.length; i += PAGE)
      await db.transaction((tx) => applyRollupChanges(tx, removed(rows.slice(i, i + PAGE))));
    return { page, alone, naive, pageSize: PAGE };
  } finally {
    await db.$client.end();
  }
}
