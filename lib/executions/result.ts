/**
 * Reading a stored service result for display: capability groups in dependency order, rules,
 * steps. Tolerant of anything: missing parts are empty, unknown capabilities and labels are kept.
 */
import {
  CAPABILITIES,
  CAPABILITY_PARENTS,
  capabilityTitle,
  explainLabel,
  orderCapabilities,
  worstDecision,
} from '@/lib/executions/glossary';
import { CAPABILITY_NAMES } from '@/lib/idv/schemas';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;

export interface CapabilityEntry {
  id: string | null;
  credentials: Array<{ id: string | null; category: string | null; label: string | null }>;
  decisionType: string | null;
  label: string | null;
  explanation: string | null;
  data: unknown;
  /** Members besides id, credentials, decision, data and additionalInformation (e.g. nfcValidationResult). */
  extra: Json;
  vendor: { name: string | null; response: unknown } | null;
}

export interface CapabilityGroup {
  name: string;
  title: string;
  what: string | null;
  known: boolean;
  worst: string | null;
  entries: CapabilityEntry[];
}

export function capabilityGroups(result: Json): CapabilityGroup[] {
  const caps = isObject(result.capabilities) ? result.capabilities : {};
  const names = orderCapabilities(
    Object.keys(caps).filter((k) => Array.isArray(caps[k])),
    CAPABILITY_NAMES,
  );
  return names.map((name) => {
    const entries = (caps[name] as unknown[]).filter(isObject).map((e): CapabilityEntry => {
      const decision = isObject(e.decision) ? e.decision : {};
      const label = str(isObject(decision.details) ? decision.details.label : null);
      const info = isObject(e.additionalInformation) ? e.additionalInformation : null;
      const vendor =
        info && isObject(info.vendor) ? { name: str(info.vendor.name), response: info.vendor.response } : null;
      const extra: Json = {};
      for (const [k, v] of Object.entries(e))
        if (!['id', 'credentials', 'decision', 'data', 'additionalInformation'].includes(k)) extra[k] = v;
      return {
        id: str(e.id),
        credentials: (Array.isArray(e.credentials) ? e.credentials : [])
          .filter(isObject)
          .map((c) => ({ id: str(c.id), category: str(c.category), label: str(c.label) })),
        decisionType: str(decision.type),
        label,
        explanation: explainLabel(label, name),
        data: e.data,
        extra,
        vendor,
      };
    });
    return {
      name,
      title: capabilityTitle(name),
      what: CAPABILITIES[name]?.what ?? null,
      known: (CAPABILITY_NAMES as readonly string[]).includes(name),
      worst: worstDecision(entries.map((e) => e.decisionType)),
      entries,
    };
  });
}

export interface RuleRow {
  id: string | null;
  name: string | null;
  version: number | null;
  score: number | null;
  matched: boolean;
  rulesetId: string | null;
  rulesetName: string | null;
}

export interface RulesetView {
  id: string | null;
  name: string | null;
  version: number | null;
  score: number | null;
  matched: RuleRow[];
  notMatched: RuleRow[];
}

export interface RuleExecutionView {
  id: string | null;
  startedAt: string | null;
  completedAt: string | null;
  rulesets: RulesetView[];
}

const num = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))
      ? Number(v)
      : null;

export function ruleExecutions(raw: unknown[]): RuleExecutionView[] {
  return raw.filter(isObject).map((x) => ({
    id: str(x.id),
    startedAt: str(x.startedAt),
    completedAt: str(x.completedAt),
    rulesets: (Array.isArray(x.rulesets) ? x.rulesets : []).filter(isObject).map((rs) => {
      const rule =
        (matched: boolean) =>
        (r: Json): RuleRow => ({
          id: str(r.id),
          name: str(r.name),
          version: num(r.version),
          score: num(r.score),
          matched,
          rulesetId: str(rs.id),
          rulesetName: str(rs.name),
        });
      return {
        id: str(rs.id),
        name: str(rs.name),
        version: num(rs.version),
        score: num(rs.score),
        matched: (Array.isArray(rs.rulesMatched) ? rs.rulesMatched : []).filter(isObject).map(rule(true)),
        notMatched: (Array.isArray(rs.rulesNotMatched) ? rs.rulesNotMatched : []).filter(isObject).map(rule(false)),
      };
    }),
  }));
}

/** Matched rules across every ruleset, highest score first. */
export function matchedRules(execs: RuleExecutionView[]): RuleRow[] {
  return execs.flatMap((x) => x.rulesets.flatMap((rs) => rs.matched)).sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
}

const words = (s: string) => s.toLowerCase().replace(/_/g, ' ');

/** A check that passed or did not run gave no rule a reason to add risk. */
const raisedNothing = (g: CapabilityGroup) => !g.worst || g.worst === 'PASSED' || g.worst === 'NOT_EXECUTED';

/**
 * How strongly a rule's name or id points at a check: 3 it names the check, 2 it matches the
 * check's known rule words (glossary), 1 it contains one of the check's result labels, 0 not at all.
 */
function affinity(group: CapabilityGroup, rule: RuleRow): number {
  const text = `${rule.name ?? ''} ${rule.id ?? ''}`;
  const t = words(text);
  if (t.includes(words(group.name))) return 3;
  if (CAPABILITIES[group.name]?.ruleHints?.test(text)) return 2;
  const labels = group.entries
    .map((e) => e.label)
    .filter((l): l is string => Boolean(l) && l !== 'OK' && l !== 'PASSED');
  return labels.some((l) => l.length > 3 && t.includes(words(l))) ? 1 : 0;
}

/**
 * Rules that concern one check. The service does not say which check a rule reads, so a rule is
 * matched by name against every check and shown only under the ones it points at most strongly:
 * "Identity data not verified" belongs to the eKYC check, not to each check whose words it
 * shares. A rule that adds risk is never put under a check that passed or did not run (it cannot
 * have fired on it); a rule that lowers risk may be.
 */
export function rulesForCapability(group: CapabilityGroup, rules: RuleRow[], all: CapabilityGroup[] = [group]) {
  return rules.filter((r) => {
    const adds = (r.score ?? 0) > 0;
    const eligible = (g: CapabilityGroup) => !(adds && raisedNothing(g));
    if (!eligible(group)) return false;
    const own = affinity(group, r);
    if (!own) return false;
    return all.every((g) => g === group || !eligible(g) || affinity(g, r) <= own);
  });
}

/** Why a NOT_EXECUTED check did not run: the checks it depends on that failed or did not run. */
export function blockedBy(group: CapabilityGroup, all: CapabilityGroup[]): CapabilityGroup[] {
  if (group.worst !== 'NOT_EXECUTED') return [];
  return (CAPABILITY_PARENTS[group.name] ?? [])
    .map((p) => all.find((g) => g.name === p))
    .filter((g): g is CapabilityGroup => Boolean(g && g.worst && g.worst !== 'PASSED'));
}

export interface StepView {
  id: string | null;
  name: string | null;
  decisionType: string | null;
  label: string | null;
  capabilities: Array<{
    id: string;
    category: string | null;
    capability: string | null;
    decisionType: string | null;
    label: string | null;
  }>;
}

/** Steps with their capability entries resolved (by id) to the capability and its decision. */
export function stepViews(steps: unknown[], groups: CapabilityGroup[]): StepView[] {
  const byId = new Map<string, { capability: string; decisionType: string | null; label: string | null }>();
  for (const g of groups)
    for (const e of g.entries)
      if (e.id) byId.set(e.id, { capability: g.name, decisionType: e.decisionType, label: e.label });
  return steps.filter(isObject).map((s) => {
    const decision = isObject(s.decision) ? s.decision : {};
    const ids = new Map<string, string | null>();
    for (const c of Array.isArray(s.capabilities) ? s.capabilities : [])
      if (isObject(c) && str(c.id)) ids.set(str(c.id)!, str(c.category));
    for (const c of Array.isArray(s.capabilityIds) ? s.capabilityIds : [])
      if (str(c) && !ids.has(str(c)!)) ids.set(str(c)!, null);
    return {
      id: str(s.id),
      name: str(s.name),
      decisionType: str(decision.type),
      label: str(isObject(decision.details) ? decision.details.label : null),
      capabilities: [...ids].map(([id, category]) => ({
        id,
        category,
        capability: byId.get(id)?.capability ?? null,
        decisionType: byId.get(id)?.decisionType ?? null,
        label: byId.get(id)?.label ?? null,
      })),
    };
  });
}
