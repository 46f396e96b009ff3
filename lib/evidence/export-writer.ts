import 'server-only';
import { createHash } from 'node:crypto';
import type { Db } from '@/lib/db/client';
import { contentDigest, STORED_ENTRY_SQL } from './chain';
import { writeCheckpoint } from './checkpoint';
import {
  CSV_HEADER,
  csvLine,
  entryFromRow,
  jsonLine,
  manifestCsvLine,
  manifestJsonLine,
  STRETCH_MAX,
  stretchCsvLine,
  stretchJsonLine,
  type ExportEntry,
  type ExportManifest,
  type ManifestCheckpoint,
} from './export-format';
import { signManifest, type SigningKey } from './signing';
import { EXPORT_MANIFEST_VERSION } from './signed-statements';

/**
 * Writes an audit export that proves itself (lib/evidence/README.md, "Export"): the entries, for
 * a filtered export the content hashes of the entries it leaves out up to the next signed
 * checkpoint, and a manifest signed with the checkpoint key.
 */

export interface ExportScope {
  from: Date | null;
  to: Date | null;
  user: { id: string; email: string } | null;
  execution: string | null;
  format: 'csv' | 'jsonl';
}

export interface ExportPlan {
  scope: ExportScope;
  kind: 'period' | 'filtered';
  /** The newest position the file may reach: the checkpoint signed (or found) when it was planned. */
  upTo: number;
  /** A period export's positions: every entry from the first in the period to the last. */
  range: { first: number; last: number } | null;
  count: number;
  every: number;
  exportedBy: { id: string; email: string };
  key: SigningKey;
  /**
   * Entries the exporter may not read (lib/evidence/audit-export.ts asks lib/qa/seal.ts: the first
   * outcome and label of a blind QA review they could take): withheld (see `exportChunks`).
   */
  withhold: (e: ExportEntry) => boolean;
}

/** Consecutive withheld entries as stretch records of their content hashes. */
function heldStretches(held: ExportEntry[], line: (r: { first: number; last: number; digests: string }) => string) {
  let out = '';
  for (let i = 0; i < held.length; i += STRETCH_MAX) {
    const part = held.slice(i, i + STRETCH_MAX);
    out += line({
      first: Number(part[0].seq),
      last: Number(part[part.length - 1].seq),
      digests: part.map((e) => contentDigest(e).toString('hex')).join(''),
    });
  }
  return out;
}

/** Marks in a manifest at most: the manifest stays under about 100 kB for any file. */
const MAX_MARKS = 1000;
const BATCH = 2000;

/** The filter of a filtered export as SQL (positions up to `upTo`), with its values after the first `skip`. */
function filterSql(s: ExportScope, upTo: number, skip: number) {
  const values: unknown[] = [upTo];
  const p = (v: unknown) => {
    values.push(v);
    return `$${values.length + skip}`;
  };
  const where = [`a.seq <= $${1 + skip}`];
  if (s.from) where.push(`a.at >= ${p(s.from)}`);
  if (s.to) where.push(`a.at < ${p(s.to)}`);
  if (s.user) where.push(`(a.actor_id = ${p(s.user.id)} or lower(a.actor_email) = ${p(s.user.email.toLowerCase())})`);
  if (s.execution) where.push(`a.target_type = 'execution' and a.target_id = ${p(s.execution)}`);
  return { where: where.join(' and '), values };
}

export type PlanResult = { ok: true; plan: ExportPlan } | { ok: false; detail: string };

/**
 * Seals what has been committed, then signs the chain's head (after verifying the stretch since
 * the last checkpoint, as the worker does every 15 minutes), so that the newest entries of the
 * file are under a signed checkpoint too. A chain that does not verify gets no checkpoint and no
 * export: the file could not prove itself.
 */
export async function planExport(
  db: Db,
  scope: ExportScope,
  exportedBy: { id: string; email: string },
  key: SigningKey,
  withhold: (e: ExportEntry) => boolean = () => false,
): Promise<PlanResult> {
  const { verification } = await writeCheckpoint(db, key);
  if (!verification.ok)
    return {
      ok: false,
      detail: `The audit chain does not verify at position ${verification.failure?.seq}: ${verification.failure?.reason}. An export could not prove itself until this is resolved (see the audit page).`,
    };
  const c = db.$client;
  // Ordered by the column, qualified: a bare `seq` after `seq::text` names the output text, and
  // '9' sorts after '10' (the tenth checkpoint on hid every newer entry from the file).
  const anchor = await c.query<{ seq: string }>(
    'select c.seq::text from audit_checkpoints c where c.key_id = $1 order by c.seq desc limit 1',
    [key.keyId],
  );
  const upTo = anchor.rows[0] ? Number(anchor.rows[0].seq) : 0;
  const kind = scope.user || scope.execution ? 'filtered' : 'period';
  let range: ExportPlan['range'] = null;
  let count: number;
  if (kind === 'period') {
    // Positions are given in commit order, so an entry written at 23:59:59 can come after one of
    // 00:00:01: the file runs from the first position in the period to the last, every entry between included.
    const r = await c.query<{ first: string | null; last: string | null }>(
      'select min(seq)::text as first, max(seq)::text as last from audit_log where at >= $1 and at < $2 and seq <= $3',
      [scope.from, scope.to, upTo],
    );
    if (r.rows[0].first) range = { first: Number(r.rows[0].first), last: Number(r.rows[0].last) };
    count = range ? range.last - range.first + 1 : 0;
  } else {
    const f = filterSql(scope, upTo, 0);
    const r = await c.query<{ n: number }>(`select count(*)::int as n from audit_log a where ${f.where}`, f.values);
    count = r.rows[0].n;
  }
  const every = Math.max(1, Math.ceil(count / MAX_MARKS));
  return { ok: true, plan: { scope, kind, upTo, range, count, every, exportedBy, key, withhold } };
}

/**
 * The file in pieces: the CSV header, the entries (with stretches), the signed manifest.
 *
 * Withheld entries (`plan.withhold`): an entry whose details carry the first outcome or the label of
 * an execution sealed for the exporter is given by its content hash only, like an entry a filtered
 * export leaves out, and its position is listed in the signed manifest (`withheld`). The chain still
 * runs through it, so the file verifies and proves that nothing else is missing or changed; the
 * entry's text can be exported by anyone for whom the review is not blind, or once it is decided.
 */
export async function* exportChunks(db: Db, plan: ExportPlan): AsyncGenerator<string> {
  const csv = plan.scope.format === 'csv';
  const entryLine = csv ? csvLine : jsonLine;
  const stretchLine = csv ? stretchCsvLine : stretchJsonLine;
  if (csv) yield CSV_HEADER;
  const c = db.$client;
  const digests = createHash('sha256');
  const marks: Array<[number, string]> = [];
  const anchors = new Map<number, ManifestCheckpoint>();
  let n = 0;
  let first: ExportManifest['first'] = null;
  let last: ExportEntry | null = null;
  const take = (e: ExportEntry) => {
    if (n % plan.every === 0) marks.push([Number(e.seq), e.hash]);
    digests.update(`${e.seq}:${e.hash}\n`);
    first ??= { seq: Number(e.seq), hash: e.hash };
    last = e;
    n++;
  };

  // The signed checkpoint at or after a position (entries only ever gain checkpoints after them).
  let cached: ManifestCheckpoint | null = null;
  const checkpointFrom = async (seq: number): Promise<ManifestCheckpoint> => {
    if (cached && cached.seq >= seq) return cached;
    const r = await c.query(
      `select c.seq::text, c.hash, c.signed_at, c.key_id, c.signature from audit_checkpoints c
       where c.seq >= $1 and c.seq <= $2 and c.key_id = $3 order by c.seq, c.id limit 1`,
      [seq, plan.upTo, plan.key.keyId],
    );
    const row = r.rows[0];
    if (!row) throw new Error(`no signed checkpoint at or after position ${seq}`);
    cached = {
      seq: Number(row.seq),
      hash: row.hash,
      signedAt: (row.signed_at as Date).toISOString(),
      keyId: row.key_id,
      signature: row.signature,
    };
    return cached;
  };
  // Content hashes of positions first..last, in records of at most STRETCH_MAX.
  async function* stretch(from: number, to: number): AsyncGenerator<string> {
    for (let a = from; a <= to; a += STRETCH_MAX) {
      const b = Math.min(to, a + STRETCH_MAX - 1);
      const r = await c.query<(string | null)[]>({
        text: `select ${STORED_ENTRY_SQL} from audit_log a where a.seq between $1 and $2 order by a.seq`,
        values: [a, b],
        rowMode: 'array',
      });
      const hex = r.rows.map((row) => contentDigest(entryFromRow(row)).toString('hex')).join('');
      // A position with no row is a removed entry: the stretch stays short and the file fails where it is.
      yield stretchLine({ first: a, last: a + r.rows.length - 1, digests: hex });
      if (r.rows.length < b - a + 1) return;
    }
  }
  // After the last entry of a run, the chain is followed to the signed checkpoint at or after it.
  async function* toCheckpoint(e: ExportEntry, next: number | null): AsyncGenerator<string> {
    const seq = Number(e.seq);
    const cp = await checkpointFrom(seq);
    anchors.set(cp.seq, cp);
    const end = next === null ? cp.seq : Math.min(cp.seq, next - 1);
    if (end > seq) yield* stretch(seq + 1, end);
  }

  const withheld: number[] = [];
  const isWithheld = plan.withhold;
  if (plan.kind === 'period') {
    // Withheld entries wait here until the next entry: between two entries they become a stretch;
    // before the first they are only listed; after the last the stretch to the checkpoint holds them.
    let held: ExportEntry[] = [];
    for (let after = (plan.range?.first ?? 1) - 1; plan.range && after < plan.range.last;) {
      const r = await c.query<(string | null)[]>({
        text: `select ${STORED_ENTRY_SQL} from audit_log a where a.seq > $1 and a.seq <= $2 order by a.seq limit $3`,
        values: [after, plan.range.last, BATCH],
        rowMode: 'array',
      });
      if (!r.rows.length) break;
      const rows = r.rows.map(entryFromRow);
      let out = '';
      for (const e of rows) {
        if (isWithheld(e)) {
          withheld.push(Number(e.seq));
          held.push(e);
          continue;
        }
        if (held.length && last) out += heldStretches(held, stretchLine);
        held = [];
        take(e);
        out += entryLine(e);
      }
      yield out;
      after = Number(rows[rows.length - 1].seq);
    }
    if (last) yield* toCheckpoint(last, null);
  } else {
    const f = filterSql(plan.scope, plan.upTo, 1);
    let pending: ExportEntry | null = null;
    for (let after = 0; ;) {
      const r = await c.query<(string | null)[]>({
        text: `select ${STORED_ENTRY_SQL} from audit_log a where a.seq > $1 and ${f.where} order by a.seq limit ${BATCH}`,
        values: [after, ...f.values],
        rowMode: 'array',
      });
      for (const e of r.rows.map(entryFromRow)) {
        // Withheld: left out like an entry outside the filter (its content hash is in the stretch).
        if (isWithheld(e)) {
          withheld.push(Number(e.seq));
          continue;
        }
        if (pending) yield* toCheckpoint(pending, Number(e.seq));
        take(e);
        yield entryLine(e);
        pending = e;
      }
      if (r.rows.length < BATCH) break;
      after = Number(r.rows[r.rows.length - 1][0]);
    }
    if (pending) yield* toCheckpoint(pending, null);
  }

  const end = last as ExportEntry | null;
  if (end && marks[marks.length - 1]?.[0] !== Number(end.seq)) marks.push([Number(end.seq), end.hash]);
  const s = plan.scope;
  const manifest: ExportManifest = {
    version: EXPORT_MANIFEST_VERSION,
    kind: plan.kind,
    filter: {
      from: s.from?.toISOString() ?? null,
      to: s.to?.toISOString() ?? null,
      user: s.user?.email ?? null,
      execution: s.execution,
    },
    format: s.format,
    exportedAt: new Date().toISOString(),
    exportedBy: plan.exportedBy,
    keyId: plan.key.keyId,
    count: n,
    first,
    last: end ? { seq: Number(end.seq), hash: end.hash } : null,
    entriesSha256: digests.digest('hex'),
    every: plan.every,
    marks,
    checkpoints: [...anchors.values()].sort((a, b) => a.seq - b.seq),
    ...(withheld.length
      ? {
          withheld: {
            count: withheld.length,
            positions: withheld,
            why: 'the first outcome or label of a case under a blind QA review the exporter could take',
          },
        }
      : {}),
  };
  const text = JSON.stringify(manifest);
  const signature = signManifest(plan.key, text);
  yield csv ? manifestCsvLine(text, signature) : manifestJsonLine(text, signature);
}
