/**
 * One thread of the COPY seeder (./seed.ts `seedByCopy`), for the ten-million-execution runs of
 * `npm run bench:growth`.
 *
 * The simulator's generator and ingest's `toRows()` cost about 1.4 ms per execution, which puts
 * 10,000,000 executions at an hour on two cores. So each thread maps a pool of real generated
 * executions once, then writes every execution of its share as one of the pool with what makes
 * an execution itself varied: its id, its dates (spread over the year; the template's started,
 * completed and feedback times keep their distance from creation), its document number (and with
 * it the document key and the search token), its references, its content hash and its delivery
 * state. Names, countries, decisions, risk, capability results and feedback come from the pool,
 * so their mix is the generator's. Rows go to Postgres through `COPY … FROM STDIN` (text format).
 *
 * Which indices a thread writes: those in its range [from, to) with `i % every` in `phases`, so a
 * first run can write every tenth execution of the year (1,000,000) and a second run the other
 * nine (the growth to 10,000,000).
 */
import { hash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { generateExecution } from '@/lib/simulator/generator';
import { toRows } from '@/lib/sync/map';
import { copyText } from './copy-text';
import { COLUMNS, type Row } from './execution-columns';

export interface CopySeedJob {
  url: string;
  seed: string;
  /** Executions in the whole year: dates are spread by `i / count`. */
  count: number;
  days: number;
  anchor: string;
  /** An 8-hex-digit tag that starts every id of this database's seeding. */
  tag: string;
  from: number;
  to: number;
  every: number;
  /** Indices written: `i % every` in `phases`. */
  phases: number[];
  /** Executions mapped by the real generator for this thread's pool. */
  pool: number;
  /** Rows per COPY statement (one transaction each). */
  perCopy: number;
}

const DAY_MS = 86_400_000;
const col = (name: string) => COLUMNS.findIndex(([c]) => c === name);
const C = {
  id: col('id'),
  account: col('account_id'),
  userRef: col('user_reference'),
  cir: col('customer_internal_reference'),
  created: col('created_at'),
  started: col('started_at'),
  completed: col('completed_at'),
  wiped: col('wiped_out_at'),
  docNumber: col('document_number'),
  docKey: col('document_key'),
  searchText: col('search_text'),
  tokens: col('search_tokens'),
  tags: col('capability_tags'),
  feedbackAt: col('feedback_provided_at'),
  delivery: col('feedback_delivery'),
  fetched: col('fetched_at'),
  contentHash: col('content_hash'),
};

const arrayLiteral = (xs: string[]) => `{${xs.map((x) => `"${x.replace(/[\\"]/g, (ch) => `\\${ch}`)}"`).join(',')}}`;

interface Template {
  fields: string[];
  created: number;
  started: number | null;
  completed: number | null;
  wiped: number | null;
  feedbackAt: number | null;
  docNumber: string | null;
  tokens: string[];
  userRef: boolean;
  feedback: boolean;
}

function template(row: Row): Template {
  const fields = COLUMNS.map(([name, , get]) => {
    if (name === 'search_tokens') return copyText(arrayLiteral(row.searchTokens as string[]));
    if (name === 'capability_tags') return copyText(arrayLiteral(row.capabilityTags as string[]));
    const v = get(row);
    if (v === null || v === undefined) return '\\N';
    if (v instanceof Date) return v.toISOString();
    return copyText(String(v));
  });
  const t = (d: Date | string | null | undefined) => (d ? new Date(d).getTime() : null);
  return {
    fields,
    created: new Date(row.createdAt as Date).getTime(),
    started: t(row.startedAt),
    completed: t(row.completedAt),
    wiped: t(row.wipedOutAt),
    feedbackAt: t(row.feedbackProvidedAt),
    docNumber: row.documentNumber ?? null,
    tokens: row.searchTokens as string[],
    userRef: Boolean(row.userReference),
    feedback: Boolean(row.feedbackStatus),
  };
}

/** A document number of the template's shape (letters stay letters, digits digits), made from i. */
function documentNumber(shape: string, i: number): string {
  const h = hash('md5', `${shape}:${i}`, 'hex');
  let out = '';
  for (let k = 0; k < shape.length; k++) {
    const n = parseInt(h[k % 32], 16);
    const c = shape[k];
    out +=
      c >= '0' && c <= '9' ? String(n % 10) : c >= 'A' && c <= 'Z' ? String.fromCharCode(65 + ((n * 7 + k) % 26)) : c;
  }
  return out;
}

function line(t: Template, i: number, job: CopySeedJob, anchor: number): string {
  const f = t.fields.slice();
  const hex = i.toString(16).padStart(12, '0');
  // Oldest first over the year; a fixed jitter of up to an hour so a day's rows are not in id order.
  const created = anchor - (1 - i / job.count) * job.days * DAY_MS - ((i * 2654435761) % 3_600_000);
  const shift = (ms: number | null) => (ms === null ? '\\N' : new Date(ms - t.created + created).toISOString());
  f[C.id] = `${job.tag}-0000-4000-8000-${hex}`;
  f[C.account] = `${job.tag}-0001-4000-8000-${hex}`;
  f[C.created] = new Date(created).toISOString();
  f[C.started] = shift(t.started);
  f[C.completed] = shift(t.completed);
  f[C.wiped] = shift(t.wiped);
  f[C.feedbackAt] = shift(t.feedbackAt);
  const day = f[C.created].slice(0, 10).replaceAll('-', '');
  const cir = `onb-${day}-${String(i % 1_000_000).padStart(6, '0')}`;
  const userRef = t.userRef ? `usr_${hash('md5', `u${i}`, 'hex').slice(0, 12)}` : null;
  f[C.cir] = cir;
  f[C.userRef] = userRef ?? '\\N';
  f[C.searchText] = userRef ? `${userRef} ${cir}` : cir;
  if (t.docNumber) {
    const number = documentNumber(t.docNumber, i);
    const lower = t.docNumber.toLowerCase();
    f[C.docNumber] = number;
    f[C.docKey] = hash('sha256', `${job.tag}:${number}`, 'hex');
    f[C.tokens] = copyText(arrayLiteral(t.tokens.map((x) => (x === lower ? number.toLowerCase() : x))));
  }
  f[C.fetched] = new Date(anchor).toISOString();
  f[C.contentHash] = hash('sha256', f[C.id], 'hex');
  // Delivery state is Verdict's own: most feedback delivered long ago, a few waiting or failed.
  f[C.delivery] = t.feedback ? (i % 40 === 0 ? 'pending' : i % 97 === 0 ? 'failed' : 'delivered') : '\\N';
  return f.join('\t');
}

async function run(job: CopySeedJob) {
  const anchor = new Date(job.anchor).getTime();
  // The pool: real executions from across the year (their own dates are replaced per row).
  const pool: Template[] = [];
  const opts = { count: job.count, days: job.days, anchor: new Date(job.anchor) };
  const fetchedAt = new Date(job.anchor);
  const step = Math.max(1, Math.floor((job.to - job.from) / job.pool));
  for (let k = 0; k < job.pool; k++) {
    const g = generateExecution(job.seed, job.from + k * step, opts);
    pool.push(template(toRows({ result: g.result, fetchedAt }).execution as Row));
  }
  parentPort?.postMessage({ pooled: job.pool });

  const client = new Client({ connectionString: job.url });
  await client.connect();
  await client.query('set synchronous_commit = off');
  const columns = COLUMNS.map(([c]) => c).join(', ');
  const phases = new Set(job.phases);
  let i = job.from;
  let done = 0;
  while (i < job.to) {
    let n = 0;
    // Each COPY reads from its own generator; they advance the shared cursor `i` one after another.
    const rows = function* () {
      let chunk = '';
      for (; i < job.to && n < job.perCopy; i++) {
        if (!phases.has(i % job.every)) continue;
        chunk += `${line(pool[(i * 40503) % pool.length], i, job, anchor)}\n`;
        n++;
        if (chunk.length > 1 << 20) {
          yield chunk;
          chunk = '';
          parentPort?.postMessage({ done: n - done });
          done = n;
        }
      }
      if (chunk) yield chunk;
    };
    done = 0;
    await pipeline(Readable.from(rows()), client.query(copyFrom(`copy executions (${columns}) from stdin`)));
    parentPort?.postMessage({ done: n - done });
  }
  await client.end();
}

run(workerData as CopySeedJob)
  .then(() => parentPort?.postMessage({ finished: true }))
  .catch((err) => {
    parentPort?.postMessage({ error: err instanceof Error ? `${err.message}\n${err.stack}` : String(err) });
  });
