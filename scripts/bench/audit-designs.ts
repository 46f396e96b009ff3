/**
 * The two audit-log designs `npm run bench:audit` compares in one run, and how it times an append.
 *
 * - "sealed" (today's): the real `audit_log`, inserts take no lock, the sealer (lib/evidence/seal.ts)
 *   chains committed rows about once a second.
 * - "head-lock" (the former one, drizzle/0010_audit_chain.sql, as a baseline): a copy of the table in
 *   the scratch schema `audit_headlock` whose BEFORE INSERT trigger locks a one-row head and chains
 *   the entry in the inserting transaction, so the lock is held until that transaction commits.
 */
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';

export const BASELINE_SCHEMA = 'audit_headlock';

/** The former trigger, word for word but for the schema of its head. */
export async function createHeadLockBaseline(c: Client) {
  const s = BASELINE_SCHEMA;
  await c.query(`drop schema if exists ${s} cascade`);
  await c.query(`create schema ${s}`);
  await c.query(`create table ${s}.audit_log (like public.audit_log including defaults including indexes)`);
  await c.query(`create sequence ${s}.audit_log_id_seq owned by ${s}.audit_log.id`);
  await c.query(`alter table ${s}.audit_log alter id set default nextval('${s}.audit_log_id_seq')`);
  // The same rows as the real table, so that both inserts meet indexes of the same size.
  await c.query(`insert into ${s}.audit_log select * from public.audit_log`);
  await c.query(`select setval('${s}.audit_log_id_seq', (select coalesce(max(id), 1) from ${s}.audit_log))`);
  await c.query(
    `create table ${s}.audit_chain_head (id int primary key, seq bigint not null, hash text not null, at timestamptz)`,
  );
  await c.query(`insert into ${s}.audit_chain_head select * from public.audit_chain_head`);
  await c.query(`
    create function ${s}.audit_log_chain() returns trigger language plpgsql as $$
    declare head_seq bigint; head_hash text;
    begin
      select seq, hash into head_seq, head_hash from ${s}.audit_chain_head where id = 1 for update;
      new.seq := head_seq + 1;
      new.prev_hash := head_hash;
      new.hash := encode(public.audit_chain_step(decode(head_hash, 'hex'), sha256(convert_to(public.audit_canonical(
        new.seq, new.at, new.actor_id, new.actor_email, new.action, new.target_type, new.target_id,
        new.outcome, new.ip, new.details), 'UTF8'))), 'hex');
      update ${s}.audit_chain_head set seq = new.seq, hash = new.hash, at = new.at where id = 1;
      return new;
    end $$`);
  await c.query(
    `create trigger audit_log_chain before insert on ${s}.audit_log for each row execute function ${s}.audit_log_chain()`,
  );
  await c.query(`vacuum analyze ${s}.audit_log`);
}

export type Design = 'sealed' | 'head-lock';

/** The single INSERT lib/audit.ts sends, into either design's table. */
const insertSql = (d: Design) =>
  `insert into ${d === 'sealed' ? 'public' : BASELINE_SCHEMA}.audit_log
     (action, actor_id, actor_email, target_type, target_id, outcome, ip, details)
   values ($1, null, $2, 'execution', $3, 'success', '127.0.0.1', $4)`;

export interface Timing {
  /** The INSERT inside the caller's transaction: what an audited action pays for the audit. */
  insert: number[];
  /** BEGIN to COMMIT of the caller's whole transaction (its own write and the commit included). */
  tx: number[];
  /** One INSERT on its own (autocommit), as `audit()` outside a transaction sends it. */
  single: number[];
  /** `select 1` in the same transaction: the round trip's floor on this machine at this moment. */
  noop: number[];
  perSec: number;
}

export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/**
 * W writers, each on its own connection, each running `n` caller transactions one after another:
 * BEGIN; a `select 1` (timed, the floor); the audit INSERT (timed); the caller's own write (a row of its own, so writers do not
 * contend on it); COMMIT. Then `n / 4` single autocommit INSERTs each.
 */
export async function appendRun(url: string, design: Design, writers: number, n: number): Promise<Timing> {
  const clients = await Promise.all(
    Array.from({ length: writers }, async () => {
      const c = new Client({ connectionString: url });
      await c.connect();
      return c;
    }),
  );
  const t: Timing = { insert: [], tx: [], single: [], noop: [], perSec: 0 };
  const sql = insertSql(design);
  const values = (w: number, i: number) => [
    'bench.append',
    `writer${w}@example.test`,
    `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
    JSON.stringify({ i, writer: w, revealed: i % 2 === 0 }),
  ];
  const one = async (c: Client, w: number, i: number, record: boolean) => {
    const s0 = performance.now();
    await c.query('begin');
    const n0 = performance.now();
    await c.query('select 1');
    const s1 = performance.now();
    await c.query(sql, values(w, i));
    const s2 = performance.now();
    await c.query('update bench_caller set n = n + 1 where id = $1', [w]);
    await c.query('commit');
    if (record) {
      t.insert.push(s2 - s1);
      t.noop.push(s1 - n0);
      t.tx.push(performance.now() - s0);
    }
  };
  // One warm-up transaction each: plans cached, connections busy before timing.
  await Promise.all(clients.map((c, w) => one(c, w, -1, false)));
  const t0 = performance.now();
  await Promise.all(
    clients.map(async (c, w) => {
      for (let i = 0; i < n; i++) await one(c, w, i, true);
    }),
  );
  t.perSec = (n * writers) / ((performance.now() - t0) / 1000);
  await Promise.all(
    clients.map(async (c, w) => {
      for (let i = 0; i < Math.ceil(n / 4); i++) {
        const s = performance.now();
        await c.query(sql, values(w, i));
        t.single.push(performance.now() - s);
      }
    }),
  );
  await Promise.all(clients.map((c) => c.end()));
  return t;
}

/** The callers' own rows (one per writer), created once. */
export async function createCallerTable(c: Client, writers: number) {
  await c.query('drop table if exists bench_caller');
  await c.query('create table bench_caller (id int primary key, n bigint not null default 0)');
  await c.query('insert into bench_caller (id) select g from generate_series(0, $1::int) g', [writers]);
}
