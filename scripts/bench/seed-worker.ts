/**
 * One seeding thread of `npm run bench:list`: generates executions with the simulator's
 * generator, maps them with ingest's own `toRows()` (the one mapping of the app) and writes the
 * `executions` rows with multi-row INSERTs built from arrays (one statement per batch).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Client } from 'pg';
import { generateExecution } from '@/lib/simulator/generator';
import { toRows } from '@/lib/sync/map';
import { COLUMNS, type Row } from './execution-columns';

export interface SeedJob {
  url: string;
  seed: string;
  count: number;
  days: number;
  anchor: string;
  /** This thread writes indices start, start + stride, start + 2*stride, ... below count. */
  start: number;
  stride: number;
  batch: number;
  /** Also store the full result JSON (slower, ~9 KB per row; the list never reads it). */
  withJson: boolean;
  /** Also write the executions' ring link keys (`npm run bench:rings`), as ingest derives them. */
  withLinks?: boolean;
  /** Write only indices below this (the generator still spreads `count` executions over `days`). */
  upTo?: number;
}

function insertSql(withJson: boolean) {
  const cols = [...COLUMNS.map(([c]) => c), ...(withJson ? ['result'] : [])];
  const sel = COLUMNS.map(([c, ,], i) =>
    c === 'capability_tags' || c === 'search_tokens' ? `string_to_array(c${i}, E'\\x1f')` : `c${i}`,
  );
  if (withJson) sel.push(`c${COLUMNS.length}::jsonb`);
  const args = COLUMNS.map(([, t], i) => `$${i + 1}::${t}[]`);
  if (withJson) args.push(`$${COLUMNS.length + 1}::text[]`);
  const names = cols.map((_, i) => `c${i}`).join(', ');
  return `insert into executions (${cols.join(', ')}) select ${sel.join(', ')} from unnest(${args.join(', ')}) as t(${names})`;
}

async function run(job: SeedJob) {
  const client = new Client({ connectionString: job.url });
  await client.connect();
  await client.query('set synchronous_commit = off');
  const text = insertSql(job.withJson);
  const linksText = `insert into link_keys (execution_id, kind, key_hash, evidence)
    select * from unnest($1::uuid[], $2::text[], $3::text[], $4::text[])`;
  const end = Math.min(job.count, job.upTo ?? job.count);
  const opts = { count: job.count, days: job.days, anchor: new Date(job.anchor) };
  const fetchedAt = new Date(job.anchor);
  let pending: Promise<unknown> | null = null;
  let done = 0;
  const build = (from: number) => {
    const cols: unknown[][] = COLUMNS.map(() => []);
    const json: string[] = [];
    const links: string[][] = [[], [], [], []];
    let n = 0;
    for (let i = from; i < end && n < job.batch; i += job.stride, n++) {
      const g = generateExecution(job.seed, i, opts);
      // Only the result: the list reads the executions row, which toRows derives from the result.
      const mapped = toRows({ result: g.result, fetchedAt });
      const row = mapped.execution as Row;
      if (job.withLinks) {
        // One row per (execution, kind, value), as ingest's insert keeps it (its ON CONFLICT DO NOTHING).
        const seen = new Set<string>();
        for (const k of mapped.linkKeys) {
          const sig = `${k.kind}\0${k.keyHash}`;
          if (seen.has(sig)) continue;
          seen.add(sig);
          links[0].push(k.executionId);
          links[1].push(k.kind);
          links[2].push(k.keyHash);
          links[3].push(k.evidence);
        }
      }
      // Delivery state is local to Verdict (not in the service's data): most feedback was
      // delivered long ago, a few are still waiting, as in a running installation.
      if (row.feedbackStatus) row.feedbackDelivery = i % 40 === 0 ? 'pending' : i % 97 === 0 ? 'failed' : 'delivered';
      COLUMNS.forEach(([, , get], k) => cols[k].push(get(row) ?? null));
      if (job.withJson) json.push(JSON.stringify(row.result));
    }
    return { cols: job.withJson ? [...cols, json] : cols, links, n };
  };
  for (let i = job.start; i < end;) {
    const { cols, links, n } = build(i);
    i += n * job.stride;
    if (pending) await pending;
    pending = Promise.all([client.query(text, cols), links[0].length ? client.query(linksText, links) : null]).then(
      () => {
        done += n;
        parentPort?.postMessage({ done: n });
      },
    );
  }
  if (pending) await pending;
  await client.end();
  return done;
}

run(workerData as SeedJob)
  .then((n) => parentPort?.postMessage({ finished: n }))
  .catch((err) => {
    parentPort?.postMessage({ error: err instanceof Error ? `${err.message}\n${err.stack}` : String(err) });
  });
