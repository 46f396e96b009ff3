import 'server-only';
import { sql } from 'drizzle-orm';
import { db } from '@/lib/db/client';
import {
  CAPABILITY_LABELS,
  CAPABILITY_NAMES,
  DECISION_TYPES,
  DOCUMENT_TYPES,
  WORKFLOW_STATUSES,
} from '@/lib/idv/schemas';
import { capabilityTitle } from '@/lib/executions/glossary';

export interface CapabilityFilterOption {
  capability: string;
  title: string;
  /** Tag values (`cap:DECISION` / `cap:label:LABEL`) with their labels, decisions first. */
  options: Array<{ value: string; label: string }>;
}

export interface ListFacets {
  decisions: string[];
  statuses: string[];
  definitions: string[];
  countries: string[];
  docTypes: string[];
  criteria: string[];
  capabilities: CapabilityFilterOption[];
}

const TTL_MS = 5 * 60_000;
let cached: { at: number; value: Promise<ListFacets> } | null = null;

/**
 * Values offered by the list's filters. Reading distinct values of a million rows costs more than
 * a page, so they are computed at most every five minutes per process, and on a large table from
 * a sample (the inputs accept any value: a rare one missing from the suggestions can still be typed).
 */
export function getListFacets(): Promise<ListFacets> {
  if (cached && Date.now() - cached.at < TTL_MS) return cached.value;
  const value = loadFacets().catch((err) => {
    cached = null;
    throw err;
  });
  cached = { at: Date.now(), value };
  return value;
}

const merge = (known: readonly string[], seen: string[]) =>
  [...new Set([...known, ...seen])].sort((a, b) => a.localeCompare(b));

async function loadFacets(): Promise<ListFacets> {
  const d = db();
  const est = await d.execute<{ n: number }>(
    sql`select greatest(reltuples, 0)::bigint::int as n from pg_class where oid = 'executions'::regclass`,
  );
  const big = (est.rows[0]?.n ?? 0) > 50_000;
  const source = big ? sql`executions tablesample system (2)` : sql`executions`;
  const distinct = async (col: string) => {
    const r = await d.execute<{ v: string }>(
      sql`select distinct ${sql.identifier(col)} as v from ${source} where ${sql.identifier(col)} is not null limit 300`,
    );
    return r.rows.map((x) => x.v);
  };
  // Columns that lead an index are read exactly with a skip scan, cheap at any size.
  const skipScan = async (col: string) => {
    const c = sql.identifier(col);
    const r = await d.execute<{ v: string }>(sql`
      with recursive t(v) as (
        (select ${c} from executions where ${c} is not null order by ${c} limit 1)
        union all
        select (select ${c} from executions where ${c} > t.v order by ${c} limit 1) from t where t.v is not null
      ) select v from t where v is not null limit 300`);
    return r.rows.map((x) => x.v);
  };
  const [decisions, statuses, countries, definitions, docTypes, criteria] = await Promise.all([
    skipScan('decision_type'),
    skipScan('status'),
    skipScan('issuing_country'),
    distinct('definition_key'),
    distinct('document_type'),
    distinct('reporting_criteria'),
  ]);
  const capabilities: CapabilityFilterOption[] = CAPABILITY_NAMES.map((capability) => {
    const table = CAPABILITY_LABELS[capability];
    const labels = new Set<string>();
    for (const t of DECISION_TYPES) for (const l of table?.[t] ?? []) labels.add(l);
    return {
      capability,
      title: capabilityTitle(capability),
      options: [
        ...DECISION_TYPES.map((t) => ({ value: `${capability}:${t}`, label: `Decision ${t}` })),
        ...[...labels].sort().map((l) => ({ value: `${capability}:label:${l}`, label: `Label ${l}` })),
      ],
    };
  }).sort((a, b) => a.title.localeCompare(b.title));
  return {
    decisions: merge(DECISION_TYPES, decisions),
    statuses: merge(WORKFLOW_STATUSES, statuses),
    definitions: merge([], definitions),
    countries: merge([], countries),
    docTypes: merge(DOCUMENT_TYPES, docTypes),
    criteria: merge([], criteria),
    capabilities,
  };
}
