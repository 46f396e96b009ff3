import { createHash } from 'node:crypto';
import { and, eq, getTableColumns, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import {
  capabilityEntries,
  credentials,
  executionLinks,
  executions,
  partImages,
  ruleExecutions,
  ruleResults,
  steps as stepsTable,
} from '@/lib/db/schema';
import {
  listCapabilityEntries,
  parseOnce,
  RuleExecutionsResponseSchema,
  stepCapabilityIds,
  StepsResponseSchema,
  WorkflowExecutionResultSchema,
  type ExtractionData,
  type RuleExecution,
  type WorkflowExecutionResult,
} from '@/lib/idv/schemas';
import { IdvParseError } from '@/lib/idv/errors';
import { stripPersonalData } from './personal-data';
import { applyRollupChanges } from './rollup';

/**
 * The one mapping from the service's JSON (R2 result, R7 steps, R8 rule executions) to the
 * cache's rows, and the one way to write them. Every writer (callback fetch, backfill, refresh,
 * benchmarks, test fixtures) goes through `ingestMany` / `ingestExecution`.
 *
 * Guarantees: idempotent (an identical re-fetch writes nothing), an older response never
 * overwrites a newer one (fetch time and status rank only move forward), all rows of one
 * execution are replaced together in one transaction, and unknown values are kept as text.
 */

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface IngestInput {
  /** Raw R2 (or R4, or an R12 item) body. */
  result: unknown;
  /** Raw R7 body; when absent the stored steps are kept. */
  steps?: unknown;
  /** Raw R8 body; when absent rules come from `result.rules.executions`, else the stored ones are kept. */
  rules?: unknown;
  /** When the request that produced this data was sent. */
  fetchedAt: Date;
}

export type IngestOutcome = 'inserted' | 'updated' | 'unchanged' | 'stale';

/** The fields of an execution that trends aggregate; passed to the change hook before and after. */
export type RollupRow = Pick<
  typeof executions.$inferSelect,
  | 'id'
  | 'createdAt'
  | 'status'
  | 'decisionType'
  | 'decisionLabel'
  | 'riskScore'
  | 'definitionKey'
  | 'issuingCountry'
  | 'documentType'
  | 'feedbackStatus'
  | 'feedbackReason'
  | 'capabilityTags'
> & { matchedRuleIds: string[] };

export type ChangeHook = (tx: Tx, changes: Array<{ before: RollupRow | null; after: RollupRow }>) => Promise<void>;
const changeHooks: ChangeHook[] = [];
/** Lets other modules (the trends rollup) follow every change, inside the same transaction. */
export function onExecutionsChanged(hook: ChangeHook) {
  if (!changeHooks.includes(hook)) changeHooks.push(hook);
}
// The trends rollup follows every change, in the same transaction, wherever ingest runs.
onExecutionsChanged(applyRollupChanges);

const STATUS_RANK: Record<string, number> = {
  INITIATED: 1,
  ACQUIRED: 2,
  PROCESSED: 3,
  SESSION_EXPIRED: 3,
  TOKEN_EXPIRED: 3,
};
export function statusRank(status: string | undefined | null): number {
  // An unknown status ranks lowest: it is stored and shown, and never blocks a known later one.
  return status ? (STATUS_RANK[status] ?? 0) : 0;
}

const toDate = (v: string | undefined | null): Date | null => {
  if (!v) return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
};
const clean = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : null;

export interface ExecutionRows {
  execution: typeof executions.$inferInsert;
  credentials: Array<typeof credentials.$inferInsert>;
  capabilityEntries: Array<typeof capabilityEntries.$inferInsert>;
  /** null = no steps in the input: keep what is stored. */
  steps: Array<typeof stepsTable.$inferInsert> | null;
  /** null = no rule executions in the input: keep what is stored. */
  ruleExecutions: Array<typeof ruleExecutions.$inferInsert> | null;
  ruleResults: Array<typeof ruleResults.$inferInsert> | null;
  links: Array<typeof executionLinks.$inferInsert>;
  matchedRuleIds: string[] | null;
}

function extractionOf(result: WorkflowExecutionResult): ExtractionData | null {
  const entries = result.capabilities?.extraction;
  if (!Array.isArray(entries)) return null;
  for (const e of entries)
    if (e && typeof e.data === 'object' && e.data !== null && !Array.isArray(e.data)) return e.data as ExtractionData;
  return null;
}

function classificationOf(result: WorkflowExecutionResult): Record<string, unknown> | null {
  const entries = result.capabilities?.classification;
  if (!Array.isArray(entries)) return null;
  for (const e of entries)
    if (e && typeof e.data === 'object' && e.data !== null && !Array.isArray(e.data))
      return e.data as Record<string, unknown>;
  return null;
}

/** The service's notion of "the same identity document", hashed (see service-facts, Feedback semantics). */
export function documentKeyOf(p: {
  country?: string | null;
  type?: string | null;
  number?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  dateOfBirth?: string | null;
}): string | null {
  if (!p.number) return null;
  const parts = [p.country, p.type, p.number, p.firstName, p.lastName, p.dateOfBirth].map((s) =>
    (s ?? '').trim().toUpperCase(),
  );
  return createHash('sha256').update(parts.join('|')).digest('hex');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function faceLinks(result: WorkflowExecutionResult, selfId: string): Array<{ linkedId: string; kind: string }> {
  const out = new Map<string, { linkedId: string; kind: string }>();
  const add = (id: unknown, kind: string) => {
    if (typeof id === 'string' && UUID.test(id) && id.toLowerCase() !== selfId.toLowerCase())
      out.set(`${kind}:${id.toLowerCase()}`, { linkedId: id.toLowerCase(), kind });
  };
  for (const e of result.capabilities?.imageChecks ?? []) {
    const findings = (e?.data as { faceSearchFindings?: { findings?: unknown } } | undefined)?.faceSearchFindings
      ?.findings;
    if (Array.isArray(findings)) findings.forEach((f) => add(f, 'face'));
  }
  for (const e of result.capabilities?.lookups ?? []) {
    const data = e?.data as Record<string, unknown> | undefined;
    if (!data || typeof data !== 'object') continue;
    for (const group of ['matchedTransactions', 'faceMatchedTransactions', 'matchedImagesTransactions']) {
      const g = data[group] as Record<string, { transactions?: unknown }> | undefined;
      if (!g || typeof g !== 'object') continue;
      const kind = group === 'faceMatchedTransactions' ? 'face' : 'network';
      const net = g.network?.transactions;
      if (Array.isArray(net)) net.forEach((t) => add(t, kind));
      const assoc = g.associatedNetwork?.transactions;
      if (assoc && typeof assoc === 'object')
        for (const list of Object.values(assoc)) if (Array.isArray(list)) list.forEach((t) => add(t, kind));
    }
  }
  return [...out.values()];
}

function ruleRows(executionId: string, execs: RuleExecution[]) {
  const re: Array<typeof ruleExecutions.$inferInsert> = [];
  const rr: Array<typeof ruleResults.$inferInsert> = [];
  const matched = new Set<string>();
  execs.forEach((x, i) => {
    const reId = x.id ?? `${executionId}:${i}`;
    re.push({ id: reId, executionId, startedAt: toDate(x.startedAt), completedAt: toDate(x.completedAt) });
    for (const rs of x.rulesets ?? []) {
      const base = {
        executionId,
        ruleExecutionId: reId,
        rulesetId: rs.id ?? 'unknown',
        rulesetName: rs.name ?? null,
        rulesetVersion: rs.version ?? null,
        rulesetScore: rs.score ?? null,
      };
      for (const [list, isMatched] of [
        [rs.rulesMatched, true],
        [rs.rulesNotMatched, false],
      ] as const) {
        for (const r of list ?? []) {
          const ruleId = r.id ?? r.name ?? 'unknown';
          if (isMatched) matched.add(ruleId);
          rr.push({
            ...base,
            ruleId,
            ruleName: r.name ?? null,
            ruleVersion: r.version ?? null,
            score: r.score ?? null,
            matched: isMatched,
          });
        }
      }
    }
  });
  return { re, rr, matched: [...matched] };
}

/**
 * JSON with object keys sorted: the content hash must not depend on key order, because data
 * read back from JSONB (stored steps and rules reused by a backfill) comes back reordered.
 *
 * The output is exactly that of the former definition, so stored content hashes stay valid:
 *   JSON.stringify(value, (_k, v) => (plain object ? Object.fromEntries(sorted entries) : v))
 * That is: keys sorted by UTF-16 code units, except that array-index keys ("0", "17") come
 * first in numeric order (as they do in any rebuilt object); undefined, functions and symbols
 * left out of objects and written as null in arrays; non-finite numbers as null; toJSON honoured.
 * Written out by hand because the replacer rebuilt every object of a ~12 kB body (result,
 * steps, rules) for each ingest, at about twice the cost. tests/unit/sync/canonical-json.test.ts
 * checks it against the former definition.
 */
export function canonicalJson(value: unknown): string {
  return serialize(value) as string;
}

/** Characters for which JSON.stringify writes more than the character itself. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
const quote = (s: string) => (NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`);
const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;
const isArrayIndex = (k: string) => {
  const c = k.charCodeAt(0);
  return c >= 48 && c <= 57 && ARRAY_INDEX.test(k) && Number(k) < 4294967295;
};
/** `"key":` of the keys seen so far (a body has a few hundred distinct ones). */
const quotedKeys = new Map<string, string>();
const quoteKey = (k: string) => {
  let q = quotedKeys.get(k);
  if (q === undefined) {
    q = `${quote(k)}:`;
    if (quotedKeys.size < 10_000) quotedKeys.set(k, q);
  }
  return q;
};

function serialize(v: unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return quote(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return JSON.stringify(v); // throws, as JSON.stringify does
    case 'object': {
      if (v === null) return 'null';
      if (Array.isArray(v)) {
        let out = '[';
        for (let i = 0; i < v.length; i++) out += (i ? ',' : '') + (serialize(v[i]) ?? 'null');
        return `${out}]`;
      }
      if (typeof (v as { toJSON?: unknown }).toJSON === 'function')
        return serialize((v as { toJSON: () => unknown }).toJSON());
      const o = v as Record<string, unknown>;
      // Own enumerable keys list array indices first, in numeric order: keep them there, sort the rest.
      const keys = Object.keys(o);
      let indices = 0;
      while (indices < keys.length && isArrayIndex(keys[indices])) indices++;
      if (indices) for (const k of keys.splice(indices).sort()) keys.push(k);
      else keys.sort();
      let out = '{';
      for (const k of keys) {
        const s = serialize(o[k]);
        if (s !== undefined) out += (out.length > 1 ? ',' : '') + quoteKey(k) + s;
      }
      return `${out}}`;
    }
    default:
      return undefined;
  }
}

/** Pure mapping of one input to all of its rows. Throws an IdvParseError naming the field when unusable. */
export function toRows(input: IngestInput, opts: { personalData?: boolean } = {}): ExecutionRows {
  const parsed = parseOnce(WorkflowExecutionResultSchema, input.result, 'workflow execution result');
  const raw = input.result as Record<string, unknown>;
  const id = parsed.workflow.id.toLowerCase();
  const wiped = Boolean(parsed.wipedOutAt);
  const keepPersonal = (opts.personalData ?? true) && !wiped;

  const ex = extractionOf(parsed);
  const cls = classificationOf(parsed);
  const country = clean(ex?.issuingCountry) ?? clean(cls?.country);
  const docType = clean(ex?.type) ?? clean(cls?.type);
  const docNumber = clean(ex?.documentNumber) ?? clean(ex?.passportNumber) ?? clean(ex?.personalNumber);
  const firstName = clean(ex?.firstName);
  const lastName = clean(ex?.lastName);
  const dob = clean(ex?.dateOfBirth);

  const caps = listCapabilityEntries(parsed.capabilities);
  const tags = new Set<string>();
  const entryRows: ExecutionRows['capabilityEntries'] = [];
  for (const { capability, entries } of caps) {
    entries.forEach((e, position) => {
      const type = clean(e.decision?.type);
      const label = clean(e.decision?.details?.label);
      if (type) tags.add(`${capability}:${type}`);
      if (label) tags.add(`${capability}:label:${label}`);
      const rawEntry = (((raw.capabilities as Record<string, unknown[]> | undefined)?.[capability] ?? [])[position] ??
        e) as Record<string, unknown>;
      entryRows.push({
        executionId: id,
        capability,
        entryId: clean(e.id) ?? `${capability}:${position}`,
        position,
        decisionType: type,
        decisionLabel: label,
        credentialIds: (e.credentials ?? []).map((c) => c.id).filter((x): x is string => typeof x === 'string'),
        data: keepPersonal ? (e.data ?? null) : null,
        raw: keepPersonal ? rawEntry : { id: e.id, credentials: e.credentials, decision: e.decision },
      });
    });
  }

  let stepRows: ExecutionRows['steps'] = null;
  if (input.steps !== undefined) {
    const s = parseOnce(StepsResponseSchema, input.steps, 'workflow steps');
    stepRows = s.steps.map((step, position) => ({
      executionId: id,
      position,
      stepId: typeof step.id === 'number' ? step.id : Number.isFinite(Number(step.id)) ? Number(step.id) : null,
      name: step.name ?? null,
      decisionType: clean(step.decision?.type),
      decisionLabel: clean(step.decision?.details?.label),
      capabilityIds: stepCapabilityIds(step),
      raw: step as Record<string, unknown>,
    }));
  }

  let ruleExecs: RuleExecution[] | null = null;
  if (input.rules !== undefined)
    ruleExecs = parseOnce(RuleExecutionsResponseSchema, input.rules, 'rule executions').executions;
  else if (parsed.rules?.executions?.length) ruleExecs = parsed.rules.executions;
  const rules = ruleExecs ? ruleRows(id, ruleExecs) : null;

  const storedResult = keepPersonal ? raw : stripPersonalData(raw);
  const hash = createHash('sha256')
    .update(canonicalJson(storedResult))
    .update('\0')
    .update(canonicalJson(input.steps ?? null))
    .update('\0')
    .update(canonicalJson(input.rules ?? null))
    .update(keepPersonal ? '1' : '0')
    .digest('hex');

  const searchable = [firstName, lastName, docNumber].filter(Boolean).join(' ');
  const refs = [
    parsed.workflow.userReference,
    parsed.workflow.customerInternalReference,
    parsed.workflow.reportingCriteria,
  ]
    .filter(Boolean)
    .join(' ');
  return {
    execution: {
      id,
      accountId: parsed.account.id.toLowerCase(),
      status: parsed.workflow.status ?? 'UNKNOWN',
      statusRank: statusRank(parsed.workflow.status),
      decisionType: clean(parsed.decision?.type),
      decisionLabel: clean(parsed.decision?.details?.label),
      riskScore: typeof parsed.decision?.risk?.score === 'number' ? Math.round(parsed.decision.risk.score) : null,
      definitionKey: clean(parsed.workflow.definitionKey),
      originalDefinitionKey: clean(parsed.workflow.originalDefinitionKey),
      userReference: clean(parsed.workflow.userReference),
      customerInternalReference: clean(parsed.workflow.customerInternalReference),
      reportingCriteria: clean(parsed.workflow.reportingCriteria),
      createdAt: toDate(parsed.createdAt) ?? toDate(parsed.startedAt) ?? input.fetchedAt,
      startedAt: toDate(parsed.startedAt),
      completedAt: toDate(parsed.completedAt),
      wipedOutAt: toDate(parsed.wipedOutAt),
      issuingCountry: country,
      documentType: docType,
      documentNumber: keepPersonal ? docNumber : null,
      firstName: keepPersonal ? firstName : null,
      lastName: keepPersonal ? lastName : null,
      dateOfBirth: keepPersonal ? dob : null,
      documentKey: keepPersonal
        ? documentKeyOf({ country, type: docType, number: docNumber, firstName, lastName, dateOfBirth: dob })
        : null,
      searchText: `${keepPersonal ? searchable : ''} ${refs}`.trim().toLowerCase() || null,
      capabilityTags: [...tags].sort(),
      feedbackStatus: clean(parsed.feedback?.status),
      feedbackReason: clean(parsed.feedback?.reason),
      feedbackProvidedAt: toDate(parsed.feedback?.providedAt),
      hasPersonalData: keepPersonal,
      result: storedResult,
      rawSteps: input.steps !== undefined ? (input.steps as Record<string, unknown>) : undefined,
      rawRules: input.rules !== undefined ? (input.rules as Record<string, unknown>) : undefined,
      fetchedAt: input.fetchedAt,
      contentHash: hash,
      staleSince: null,
      // updated_at: the column default (now(), the transaction's time) on insert, now() on update.
    },
    credentials: (parsed.credentials ?? [])
      .filter((c) => typeof c.id === 'string' && UUID.test(c.id))
      .map((c, i) => ({
        id: c.id!.toLowerCase(),
        executionId: id,
        category: c.category ?? null,
        label: c.label ?? null,
        clientIp: keepPersonal ? (c.clientIp ?? null) : null,
        parts: (c.parts ?? []).map((p) => ({ classifier: p.classifier, captureType: p.captureType })),
        raw: keepPersonal
          ? (((raw.credentials as unknown[]) ?? [])[i] as Record<string, unknown>)
          : { id: c.id, category: c.category, label: c.label },
      })),
    capabilityEntries: entryRows,
    steps: stepRows,
    ruleExecutions: rules?.re ?? null,
    ruleResults: rules?.rr ?? null,
    links: faceLinks(parsed, id).map((l) => ({ executionId: id, ...l })),
    matchedRuleIds: rules?.matched ?? null,
  };
}

function rollupOf(
  e: Omit<
    RollupRow,
    | 'matchedRuleIds'
    | 'decisionType'
    | 'decisionLabel'
    | 'riskScore'
    | 'definitionKey'
    | 'issuingCountry'
    | 'documentType'
    | 'feedbackStatus'
    | 'feedbackReason'
    | 'capabilityTags'
  > &
    Partial<RollupRow>,
  matchedRuleIds: string[],
): RollupRow {
  return {
    id: e.id,
    createdAt: e.createdAt,
    status: e.status,
    decisionType: e.decisionType ?? null,
    decisionLabel: e.decisionLabel ?? null,
    riskScore: e.riskScore ?? null,
    definitionKey: e.definitionKey ?? null,
    issuingCountry: e.issuingCountry ?? null,
    documentType: e.documentType ?? null,
    feedbackStatus: e.feedbackStatus ?? null,
    feedbackReason: e.feedbackReason ?? null,
    capabilityTags: e.capabilityTags ?? [],
    matchedRuleIds,
  };
}

/**
 * Rows as the JSON text of an array of records keyed by column name (what
 * jsonb_populate_recordset maps onto a table's row type): dates as ISO text, a key missing
 * from a row left out (NULL there).
 */
function jsonRecords(rows: ReadonlyArray<object>, keys: string[], columns: Record<string, { name: string }>): string {
  return JSON.stringify(
    rows.map((r) => {
      const o: Record<string, unknown> = {};
      for (const k of keys) {
        const v = (r as Record<string, unknown>)[k];
        if (v !== undefined) o[columns[k].name] = v instanceof Date ? v.toISOString() : v;
      }
      return o;
    }),
  );
}

/**
 * Statement steps (CTEs) inserting the child rows of every table, each table's rows one JSON
 * array which Postgres maps onto the table's row type (jsonb_populate_recordset). Building a
 * multi-row insert through the query builder costs more CPU than the database spends on it (a backfill page of 100 executions carries some 3,000
 * rule results), and under load every extra round trip in the page's transaction adds latency.
 * Rows where a column is missing in some rows (a default would apply) go through the query
 * builder instead (`others`, run after the statement).
 */
function insertChildren(sets: Array<[table: Parameters<Tx['insert']>[0], rows: Array<Record<string, unknown>>]>): {
  steps: SQL[];
  others: (tx: Tx) => Promise<void>;
} {
  const steps: SQL[] = [];
  const others: Array<[Parameters<Tx['insert']>[0], Array<Record<string, unknown>>]> = [];
  for (const [table, rows] of sets) {
    if (!rows.length) continue;
    const columns = getTableColumns(table as never) as Record<string, { name: string }>;
    const keys = Object.keys(rows[0]).filter((k) => k in columns && rows[0][k] !== undefined);
    const uniform = rows.every(
      (r) =>
        keys.every((k) => r[k] !== undefined) && Object.keys(r).every((k) => keys.includes(k) || r[k] === undefined),
    );
    if (!uniform) {
      others.push([table, rows]);
      continue;
    }
    const names = sql.join(
      keys.map((k) => sql.identifier(columns[k].name)),
      sql`, `,
    );
    steps.push(
      sql`${sql.identifier(`ins_${steps.length}`)} as (insert into ${table} (${names}) select ${names} from jsonb_populate_recordset(null::${table}, ${jsonRecords(rows, keys, columns)}::jsonb))`,
    );
  }
  return {
    steps,
    others: async (tx) => {
      for (const [table, rows] of others) {
        const size = Math.max(1, Math.floor(20_000 / (Object.keys(rows[0]).length || 1)));
        for (let i = 0; i < rows.length; i += size) await tx.insert(table).values(rows.slice(i, i + size) as never);
      }
    },
  };
}

/** Columns an existing execution takes from a re-ingest as is (`excluded`); the others are below. */
const UPSERT_FROM_EXCLUDED = [
  'account_id',
  'status',
  'status_rank',
  'decision_type',
  'decision_label',
  'risk_score',
  'definition_key',
  'original_definition_key',
  'user_reference',
  'customer_internal_reference',
  'reporting_criteria',
  'created_at',
  'started_at',
  'completed_at',
  'wiped_out_at',
  'issuing_country',
  'document_type',
  'document_number',
  'first_name',
  'last_name',
  'date_of_birth',
  'document_key',
  'search_text',
  'capability_tags',
  'feedback_status',
  'feedback_reason',
  'feedback_provided_at',
  'has_personal_data',
  'result',
  'fetched_at',
  'content_hash',
];
const UPSERT_SET = sql.raw(
  [
    ...UPSERT_FROM_EXCLUDED.map((c) => `"${c}" = excluded."${c}"`),
    // Steps and rules absent from the input (NULL here) keep the stored ones.
    'raw_steps = coalesce(excluded.raw_steps, executions.raw_steps)',
    'raw_rules = coalesce(excluded.raw_rules, executions.raw_rules)',
    'gone_at = null',
    'stale_since = null',
    'updated_at = now()',
  ].join(', '),
);

/**
 * Statement steps (CTEs) that insert or replace execution rows, 500 a step, each step's only
 * parameter a JSON array mapped onto the table's row type (as insertChildren does): drizzle
 * spent more CPU building a 500-row, 40-column VALUES list than Postgres spent on it. A key
 * missing from a row (raw steps or rules not in the input) is NULL, which the update above
 * keeps as stored.
 */
function upsertExecutions(rows: Array<typeof executions.$inferInsert>): SQL[] {
  const columns = getTableColumns(executions) as Record<string, { name: string }>;
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((k) => k in columns);
  const names = sql.join(
    keys.map((k) => sql.identifier(columns[k].name)),
    sql`, `,
  );
  const steps: SQL[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    steps.push(sql`${sql.identifier(`up_${i}`)} as (insert into ${executions} (${names})
      select ${names} from jsonb_populate_recordset(null::${executions}, ${jsonRecords(rows.slice(i, i + 500), keys, columns)}::jsonb)
      on conflict (id) do update set ${UPSERT_SET})`);
  }
  return steps;
}

async function inTx<T>(dbOrTx: DbOrTx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  // A drizzle transaction has `rollback`; a plain database handle does not.
  if ('rollback' in dbOrTx) return fn(dbOrTx as Tx);
  return (dbOrTx as Db).transaction(fn);
}

const prepared = new WeakMap<IngestInput, ExecutionRows>();
/**
 * Maps an input ahead of its write, so that ingest of that same input object reuses the rows:
 * a backfill maps the pages it prefetches while the database writes the current one, instead
 * of inside the page's transaction. An unusable input is left for ingest to report. The rows
 * carry no write time (updated_at is the transaction's), so mapping early changes nothing.
 */
export function prepareInput(input: IngestInput): void {
  try {
    prepared.set(input, toRows(input));
  } catch {
    // ingestMany throws the same error when it maps the input again.
  }
}

/**
 * Writes many executions in one transaction with a handful of statements per table: the path
 * of backfills and benchmarks. Returns one outcome per input, in order. An input that cannot
 * be parsed throws before anything is written.
 */
export async function ingestMany(
  dbOrTx: DbOrTx,
  inputs: IngestInput[],
): Promise<Array<{ id: string; outcome: IngestOutcome }>> {
  if (!inputs.length) return [];
  // Mapped before the transaction: an unusable input fails the batch before anything is written.
  const mapped = inputs.map((input) => ({ input, rows: prepared.get(input) ?? toRows(input) }));
  for (const m of mapped) {
    if (!UUID.test(m.rows.execution.id!))
      throw new IdvParseError('workflow execution result', [
        { code: 'custom', path: ['workflow', 'id'], message: 'must be a UUID', input: undefined },
      ]);
    if (!UUID.test(m.rows.execution.accountId!))
      throw new IdvParseError('workflow execution result', [
        { code: 'custom', path: ['account', 'id'], message: 'must be a UUID', input: undefined },
      ]);
  }
  const ids = [...new Set(mapped.map((m) => m.rows.execution.id!))].sort();

  return inTx(dbOrTx, async (tx) => {
    // Serialize writers of the same execution (a callback fetch racing a backfill page).
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(x)) from unnest(string_to_array(${ids.join(',')}, ',')) as x order by x`,
    );
    const existingRows = await tx
      .select({
        id: executions.id,
        createdAt: executions.createdAt,
        status: executions.status,
        statusRank: executions.statusRank,
        decisionType: executions.decisionType,
        decisionLabel: executions.decisionLabel,
        riskScore: executions.riskScore,
        definitionKey: executions.definitionKey,
        issuingCountry: executions.issuingCountry,
        documentType: executions.documentType,
        feedbackStatus: executions.feedbackStatus,
        feedbackReason: executions.feedbackReason,
        capabilityTags: executions.capabilityTags,
        fetchedAt: executions.fetchedAt,
        contentHash: executions.contentHash,
        personalDataPurgedAt: executions.personalDataPurgedAt,
        goneAt: executions.goneAt,
      })
      .from(executions)
      .where(inArray(executions.id, ids));
    const existing = new Map(existingRows.map((r) => [r.id, r]));
    const matchedBefore = new Map<string, string[]>();
    if (existingRows.length) {
      const rr = await tx
        .selectDistinct({ executionId: ruleResults.executionId, ruleId: ruleResults.ruleId })
        .from(ruleResults)
        .where(
          and(
            inArray(
              ruleResults.executionId,
              existingRows.map((r) => r.id),
            ),
            eq(ruleResults.matched, true),
          ),
        );
      for (const r of rr) matchedBefore.set(r.executionId, [...(matchedBefore.get(r.executionId) ?? []), r.ruleId]);
    }

    const outcomes: Array<{ id: string; outcome: IngestOutcome }> = [];
    const winners = new Map<string, ExecutionRows>();
    // Later duplicates of one id in the same batch are judged like later batches: newest fetch wins.
    for (const m of mapped) {
      const id = m.rows.execution.id!;
      const prev = existing.get(id);
      // Retention wins over a re-fetch: purged personal data is not brought back.
      const rows = prev?.personalDataPurgedAt ? toRows(m.input, { personalData: false }) : m.rows;
      const current = winners.get(id);
      const ref = current
        ? {
            fetchedAt: current.execution.fetchedAt ?? null,
            statusRank: current.execution.statusRank ?? 0,
            contentHash: current.execution.contentHash ?? null,
          }
        : prev
          ? { fetchedAt: prev.fetchedAt, statusRank: prev.statusRank, contentHash: prev.contentHash }
          : null;
      if (
        ref &&
        ((ref.fetchedAt && ref.fetchedAt > m.input.fetchedAt) || ref.statusRank > (rows.execution.statusRank ?? 0))
      ) {
        outcomes.push({ id, outcome: 'stale' });
        continue;
      }
      if (ref && ref.contentHash === rows.execution.contentHash && !prev?.goneAt) {
        outcomes.push({ id, outcome: 'unchanged' });
        continue;
      }
      winners.set(id, rows);
      outcomes.push({ id, outcome: prev ? 'updated' : 'inserted' });
    }
    if (!winners.size) return outcomes;

    const all = [...winners.values()];
    // Children are replaced as a whole; steps and rules only when the input carried them. A new
    // execution has none (they cascade with it), so a first backfill deletes nothing.
    const replaced = all.filter((r) => existing.has(r.execution.id!));
    const deletes: SQL[] = [];
    const deleteOf = (
      table:
        | typeof credentials
        | typeof capabilityEntries
        | typeof executionLinks
        | typeof stepsTable
        | typeof ruleResults
        | typeof ruleExecutions,
      ids: string[],
    ) => {
      if (ids.length)
        deletes.push(
          sql`${sql.identifier(`del_${deletes.length}`)} as (delete from ${table} where ${table.executionId} = any(${sql.param(ids)}::uuid[]))`,
        );
    };
    const replacedIds = replaced.map((r) => r.execution.id!);
    deleteOf(credentials, replacedIds);
    deleteOf(capabilityEntries, replacedIds);
    deleteOf(executionLinks, replacedIds);
    deleteOf(
      stepsTable,
      replaced.filter((r) => r.steps !== null).map((r) => r.execution.id!),
    );
    const withRules = replaced.filter((r) => r.ruleExecutions !== null).map((r) => r.execution.id!);
    deleteOf(ruleResults, withRules);
    deleteOf(ruleExecutions, withRules);
    // One statement for all deletes (data-modifying CTEs on different tables).
    if (deletes.length) await tx.execute(sql`with ${sql.join(deletes, sql`, `)} select 1`);

    const children = insertChildren([
      [credentials, all.flatMap((r) => r.credentials)],
      [capabilityEntries, all.flatMap((r) => r.capabilityEntries)],
      [executionLinks, dedupeLinks(all.flatMap((r) => r.links))],
      [stepsTable, all.flatMap((r) => r.steps ?? [])],
      [ruleExecutions, all.flatMap((r) => r.ruleExecutions ?? [])],
      [ruleResults, all.flatMap((r) => r.ruleResults ?? [])],
    ]);
    // Executions and their children in one statement: the children's foreign keys are checked
    // at its end, when the execution rows are there.
    await tx.execute(
      sql`with ${sql.join([...upsertExecutions(all.map((r) => r.execution)), ...children.steps], sql`, `)} select 1`,
    );
    await children.others(tx);

    if (changeHooks.length) {
      const changes = all.map((r) => {
        const id = r.execution.id!;
        const prev = existing.get(id);
        return {
          before: prev ? rollupOf(prev, matchedBefore.get(id) ?? []) : null,
          after: rollupOf(r.execution, r.matchedRuleIds ?? matchedBefore.get(id) ?? []),
        };
      });
      for (const hook of changeHooks) await hook(tx, changes);
    }
    return outcomes;
  });
}

function dedupeLinks(links: Array<typeof executionLinks.$inferInsert>) {
  const seen = new Set<string>();
  return links.filter((l) => {
    const k = `${l.executionId}|${l.linkedId}|${l.kind}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export async function ingestExecution(
  dbOrTx: DbOrTx,
  input: IngestInput,
): Promise<{ id: string; outcome: IngestOutcome }> {
  const [r] = await ingestMany(dbOrTx, [input]);
  return r;
}

/**
 * Removes personal data from cached executions while keeping decision metadata: used when
 * the service answers 404 for an execution (deleted there), for wipes, and for retention.
 * Returns how many executions were purged.
 */
export async function purgePersonalData(
  dbOrTx: DbOrTx,
  target: string[] | { olderThan: Date },
  opts: { reason?: 'retention' | 'gone'; batch?: number } = {},
): Promise<number> {
  const batch = opts.batch ?? 500;
  let total = 0;
  for (;;) {
    const n = await inTx(dbOrTx, async (tx) => {
      const where = Array.isArray(target)
        ? and(
            inArray(
              executions.id,
              target.map((t) => t.toLowerCase()),
            ),
            eq(executions.hasPersonalData, true),
          )
        : and(lt(executions.createdAt, target.olderThan), eq(executions.hasPersonalData, true));
      const rows = await tx
        .select({ id: executions.id, result: executions.result })
        .from(executions)
        .where(where)
        .limit(batch)
        .for('update');
      if (!rows.length) return 0;
      const ids = rows.map((r) => r.id);
      for (const r of rows) {
        await tx
          .update(executions)
          .set({
            result: r.result ? stripPersonalData(r.result) : null,
            firstName: null,
            lastName: null,
            dateOfBirth: null,
            documentNumber: null,
            documentKey: null,
            searchText: sql`nullif(trim(concat_ws(' ', lower(${executions.userReference}), lower(${executions.customerInternalReference}), lower(${executions.reportingCriteria}))), '')`,
            hasPersonalData: false,
            personalDataPurgedAt: opts.reason === 'retention' ? new Date() : sql`${executions.personalDataPurgedAt}`,
            contentHash: null,
            updatedAt: new Date(),
          })
          .where(eq(executions.id, r.id));
      }
      await tx
        .update(capabilityEntries)
        .set({
          data: null,
          raw: sql`jsonb_build_object('id', ${capabilityEntries.raw}->'id', 'credentials', ${capabilityEntries.raw}->'credentials', 'decision', ${capabilityEntries.raw}->'decision')`,
        })
        .where(inArray(capabilityEntries.executionId, ids));
      await tx
        .update(credentials)
        .set({
          clientIp: null,
          raw: sql`jsonb_build_object('id', ${credentials.raw}->'id', 'category', ${credentials.raw}->'category', 'label', ${credentials.raw}->'label')`,
        })
        .where(inArray(credentials.executionId, ids));
      await tx.delete(partImages).where(inArray(partImages.executionId, ids));
      return ids.length;
    });
    total += n;
    if (n < batch || Array.isArray(target)) return total;
  }
}

/** The service answered 404 for an execution we hold: keep the record and its metadata, drop personal data. */
export async function markGoneAtService(dbOrTx: DbOrTx, executionId: string, at: Date): Promise<void> {
  await inTx(dbOrTx, async (tx) => {
    await tx
      .update(executions)
      .set({ goneAt: at, staleSince: null, updatedAt: new Date() })
      .where(and(eq(executions.id, executionId.toLowerCase())));
    await purgePersonalData(tx, [executionId], { reason: 'gone' });
  });
}

/** Marks executions as having newer data at the service (a callback arrived): the fetch job clears it. */
export async function markStale(dbOrTx: DbOrTx, executionId: string, at = new Date()): Promise<void> {
  await dbOrTx
    .update(executions)
    .set({ staleSince: at })
    .where(and(eq(executions.id, executionId.toLowerCase()), sql`${executions.staleSince} is null`));
}
