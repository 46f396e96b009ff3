import 'server-only';
import { z } from 'zod';
import {
  DEFAULT_LIST_PARAMS,
  FEEDBACK_FILTERS,
  PAGE_SIZES,
  SORT_KEYS,
  UUID_RE,
  type ListParams,
} from '@/lib/executions/list-params';

/**
 * The forgiving reading of the list's URL: every parameter is checked on its own and a bad one
 * falls back to its default (no filter), so a mangled or outdated link still opens a list.
 */
const one = (raw: unknown) => (Array.isArray(raw) ? raw[0] : raw);
const many = (raw: unknown): unknown[] => (raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]);

/** A value from the service (status, decision type, key...): kept as text, unknown ones included. */
const token = z
  .string()
  .trim()
  .min(1)
  .max(80)
  .regex(/^[\w.:\-/ ]+$/);
const isoDay = z.iso.date();
const risk = z.coerce.number().int().min(-1).max(100);
const cursor = z
  .string()
  .max(120)
  .regex(/^[^~]*~[0-9a-f-]{36}$/i);
const capTag = z
  .string()
  .max(120)
  .regex(/^[A-Za-z0-9_]+:(label:)?[\w\-.]+$/);

function pick<T>(schema: z.ZodType<T>, raw: unknown): T | undefined {
  const v = one(raw);
  if (v === undefined || v === '') return undefined;
  const r = schema.safeParse(v);
  return r.success ? r.data : undefined;
}
function pickMany<T>(schema: z.ZodType<T>, raw: unknown, max = 10): T[] {
  const out: T[] = [];
  for (const v of many(raw)) {
    const r = schema.safeParse(v);
    if (r.success && !out.includes(r.data)) out.push(r.data);
    if (out.length >= max) break;
  }
  return out;
}

export type RawSearchParams = Record<string, string | string[] | undefined>;

export function parseListParams(raw: RawSearchParams | URLSearchParams): ListParams {
  const get = (k: string): unknown =>
    raw instanceof URLSearchParams ? (raw.getAll(k).length > 1 ? raw.getAll(k) : (raw.get(k) ?? undefined)) : raw[k];
  let riskMin = pick(risk, get('riskMin'));
  let riskMax = pick(risk, get('riskMax'));
  if (riskMin !== undefined && riskMax !== undefined && riskMin > riskMax) [riskMin, riskMax] = [riskMax, riskMin];
  const size = Number(one(get('size')));
  const q = pick(z.string().trim().regex(UUID_RE), get('q'));
  return {
    decision: pickMany(token, get('decision')).map((s) => s.toUpperCase()),
    status: pickMany(token, get('status')).map((s) => s.toUpperCase()),
    riskMin,
    riskMax,
    createdFrom: pick(isoDay, get('createdFrom')),
    createdTo: pick(isoDay, get('createdTo')),
    completedFrom: pick(isoDay, get('completedFrom')),
    completedTo: pick(isoDay, get('completedTo')),
    definition: pick(token, get('definition')),
    cap: pickMany(capTag, get('cap'), 5),
    country: pick(
      z
        .string()
        .trim()
        .regex(/^[A-Za-z]{2,3}$/)
        .transform((s) => s.toUpperCase()),
      get('country'),
    ),
    docType: pick(token, get('docType'))?.toUpperCase(),
    feedback: pickMany(z.enum(FEEDBACK_FILTERS), get('feedback')),
    criteria: pick(z.string().trim().min(1).max(255), get('criteria')),
    feedbackReason: pick(token, get('feedbackReason'))?.toUpperCase(),
    rule: pick(z.string().trim().min(1).max(200), get('rule')),
    account: pick(
      z
        .string()
        .trim()
        .regex(UUID_RE)
        .transform((s) => s.toLowerCase()),
      get('account'),
    ),
    q: q?.toLowerCase(),
    st: pick(z.string().regex(/^[A-Za-z0-9_-]{8,40}$/), get('st')),
    sort: pick(z.enum(SORT_KEYS), get('sort')) ?? DEFAULT_LIST_PARAMS.sort,
    dir: pick(z.enum(['asc', 'desc']), get('dir')) ?? DEFAULT_LIST_PARAMS.dir,
    size: (PAGE_SIZES as readonly number[]).includes(size) ? (size as ListParams['size']) : DEFAULT_LIST_PARAMS.size,
    after: pick(cursor, get('after')),
    before: pick(cursor, get('before')),
    at: pick(cursor, get('at')),
  };
}
