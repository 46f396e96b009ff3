import { createHash } from 'node:crypto';
import type { executionLinks, executions, linkKeys } from '@/lib/db/schema';
import { capabilityEntries, credentials, ruleExecutions, ruleResults, steps as stepsTable } from '@/lib/db/schema';
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
import { personalSearchTokens } from '@/lib/pii/search-tokens';
import { linkKeysOf } from '@/lib/rings/link-keys';
import { canonicalJson } from './canonical-json';
import { stripPersonalData } from './personal-data';

/**
 * The one mapping from the service's JSON (R2 result, R7 steps, R8 rule executions) to the
 * cache's rows: pure, no database. Unknown values are kept as text.
 */

/** One input to ingest: the service's raw bodies and when they were requested. */
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
  /** Keyed hashes of the attributes it shares (lib/rings); none once personal data is purged. */
  linkKeys: Array<typeof linkKeys.$inferInsert>;
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

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

  const refs = [
    parsed.workflow.userReference,
    parsed.workflow.customerInternalReference,
    parsed.workflow.reportingCriteria,
  ]
    .filter(Boolean)
    .join(' ');
  const faces = faceLinks(parsed, id);
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
      // Personal data is found only by whole values (lib/pii/search-tokens.ts); references by any part.
      searchText: refs.trim().toLowerCase() || null,
      searchTokens: keepPersonal ? personalSearchTokens({ firstName, lastName, documentNumber: docNumber }) : [],
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
    links: faces.map((l) => ({ executionId: id, ...l })),
    linkKeys: keepPersonal
      ? linkKeysOf(
          raw,
          faces.filter((f) => f.kind === 'face').map((f) => f.linkedId),
          id,
        ).map((k) => ({ executionId: id, ...k }))
      : [],
    matchedRuleIds: rules?.matched ?? null,
  };
}
