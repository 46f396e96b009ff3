import { maskDeep, maskField } from '@/lib/pii/mask';

/**
 * The personal part of one stored execution as a user sees it: in clear with a reveal, otherwise
 * through the one masking function. The detail page and the read API's execution summary both
 * build it here, so a machine reading the API sees exactly what an analyst without a reveal sees.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface ComparisonRow {
  field: string;
  extracted: unknown;
  supplied: unknown;
  /** Both sides present and different (compared on the real values, before masking). */
  mismatch: boolean;
}

/**
 * Extracted data next to the data the customer supplied: the extraction entry read from an ID
 * document and the one read from a DATA credential (prepared data), field by field.
 */
function compareExtraction(result: Json): ComparisonRow[] {
  const caps = isObject(result.capabilities) ? result.capabilities : {};
  const creds = Array.isArray(result.credentials) ? (result.credentials as Json[]) : [];
  const categoryOf = (id: unknown) => creds.find((c) => c.id === id)?.category;
  const entries = Array.isArray(caps.extraction) ? (caps.extraction as Json[]) : [];
  const bySource = (cat: string) =>
    entries.find(
      (e) =>
        Array.isArray(e.credentials) &&
        (e.credentials as Json[]).some((c) => (c.category ?? categoryOf(c.id)) === cat) &&
        isObject(e.data),
    )?.data as Json | undefined;
  const doc = bySource('ID') ?? bySource('DOCUMENT');
  const supplied = bySource('DATA');
  if (!doc && !supplied) return [];
  const flat = (o: Json | undefined, prefix = ''): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o ?? {})) {
      if (k.endsWith('Parts') || k === 'mrz' || k === 'customExtractionPoints' || k === 'additionalLanguage') continue;
      if (isObject(v)) Object.assign(out, flat(v, `${prefix}${k}.`));
      else if (!Array.isArray(v)) out[`${prefix}${k}`] = v;
    }
    return out;
  };
  const a = flat(doc);
  const b = flat(supplied);
  const norm = (v: unknown) => String(v).trim().toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '');
  const fields = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return fields.map((field) => ({
    field,
    extracted: a[field],
    supplied: b[field],
    mismatch: a[field] !== undefined && b[field] !== undefined && norm(a[field]) !== norm(b[field]),
  }));
}

/** Masks one flattened field ("address.line1") as the masking function would inside its document. */
function maskPath(field: string, value: unknown): unknown {
  if (value === undefined) return value;
  const keys = field.split('.');
  const doc: Json = {};
  let at = doc;
  keys.slice(0, -1).forEach((k) => (at = at[k] = {}));
  at[keys[keys.length - 1]] = value;
  let out: unknown = maskDeep(doc, 'part');
  for (const k of keys) out = (out as Json)[k];
  return out;
}

export interface StoredExecution {
  firstName: string | null;
  lastName: string | null;
  documentNumber: string | null;
  result: Record<string, unknown> | null;
  rawSteps: Record<string, unknown> | null;
  rawRules: Record<string, unknown> | null;
}

export interface PersonalContent {
  name: string | null;
  documentNumber: string | null;
  /** The service's result. */
  result: Json;
  steps: Json[];
  ruleExecutions: Json[];
  comparison: ComparisonRow[];
}

/** `stepRows`: the execution's steps from their table, when the row keeps no `raw_steps`. */
export function personalContent(
  row: StoredExecution,
  stepRows: Array<{ raw: Json }>,
  revealed: boolean,
): PersonalContent {
  const rawResult = (row.result ?? {}) as Json;
  const rawSteps =
    isObject(row.rawSteps) && Array.isArray(row.rawSteps.steps)
      ? (row.rawSteps.steps as Json[])
      : stepRows.map((s) => s.raw);
  const rulesSource =
    isObject(row.rawRules) && Array.isArray(row.rawRules.executions)
      ? row.rawRules.executions
      : isObject(rawResult.rules)
        ? rawResult.rules.executions
        : [];
  const name = [row.firstName, row.lastName].filter(Boolean).join(' ') || null;
  return {
    name: revealed
      ? name
      : name && [maskField('firstName', row.firstName), maskField('lastName', row.lastName)].filter(Boolean).join(' '),
    documentNumber: revealed ? row.documentNumber : maskField('documentNumber', row.documentNumber),
    result: revealed ? rawResult : maskDeep(rawResult),
    // Steps and rule executions go through the same masking as the result: a vendor may put
    // anything in them.
    steps: rawSteps.filter(isObject).map((x) => (revealed ? x : maskDeep(x, 'part'))),
    ruleExecutions: (Array.isArray(rulesSource) ? rulesSource : [])
      .filter(isObject)
      .map((x) => (revealed ? x : maskDeep(x, 'part'))),
    comparison: compareExtraction(rawResult).map((c) =>
      revealed ? c : { ...c, extracted: maskPath(c.field, c.extracted), supplied: maskPath(c.field, c.supplied) },
    ),
  };
}
