import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '@/lib/sync/canonical-json';
import { toRows } from '@/lib/sync/map';
import { buildExecution } from '../../support/fixtures/execution';

/** The definition the stored content hashes were computed with: the fast one must equal it. */
const formerCanonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, (v as Record<string, unknown>)[k]]),
        )
      : v,
  );

/** Deep copy with every object's keys in reverse (or shuffled) insertion order. */
function reorder(v: unknown, pick: (keys: string[]) => string[] = (k) => [...k].reverse()): unknown {
  if (Array.isArray(v)) return v.map((x) => reorder(x, pick));
  if (v && typeof v === 'object')
    return Object.fromEntries(pick(Object.keys(v)).map((k) => [k, reorder((v as Record<string, unknown>)[k], pick)]));
  return v;
}

/** A small seeded PRNG (mulberry32), so failures reproduce. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = [
  'a',
  'B',
  'b',
  '_x',
  'Z',
  'é',
  '0',
  '1',
  '10',
  '9',
  '01',
  '-1',
  '4294967294',
  '4294967295',
  '1.5',
  '',
  ' ',
  'key"q',
  'back\\slash',
  'nl\n',
  '\u2028',
  '😀',
  '__proto__',
  'constructor',
];
const STRINGS = [
  '',
  'plain',
  'quote"',
  'back\\',
  'tab\t',
  'ctl\u0001',
  'line\u2028sep',
  'pair😀',
  'lone\ud800',
  'lone\udfff end',
  'é',
];

function randomValue(rand: () => number, depth: number): unknown {
  const r = rand();
  if (depth > 4 || r < 0.35) {
    const p = Math.floor(rand() * 12);
    return [
      null,
      true,
      false,
      0,
      -0,
      1.5,
      -42,
      1e21,
      NaN,
      Infinity,
      undefined,
      STRINGS[Math.floor(rand() * STRINGS.length)],
    ][p];
  }
  if (r < 0.6) return Array.from({ length: Math.floor(rand() * 5) }, () => randomValue(rand, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(rand() * 7); i > 0; i--)
    Object.defineProperty(o, KEYS[Math.floor(rand() * KEYS.length)], {
      value: randomValue(rand, depth + 1),
      enumerable: true,
      configurable: true,
      writable: true,
    });
  return o;
}

describe('canonicalJson', () => {
  it('writes exactly what the former replacer-based definition wrote (stored hashes stay valid)', () => {
    const rand = prng(20261121);
    for (let i = 0; i < 3000; i++) {
      const v = randomValue(rand, 0);
      expect(canonicalJson(v), JSON.stringify(v)).toBe(formerCanonicalJson(v) ?? undefined);
    }
    const x = buildExecution({ firstName: 'Zoë', feedback: { status: 'FRAUD', reason: 'ID_FRAUD' } });
    for (const body of [
      x.result,
      x.steps,
      x.rules,
      null,
      { at: new Date(0), n: [undefined, () => 1, Symbol('s')], f: () => 1 },
    ]) {
      expect(canonicalJson(body)).toBe(formerCanonicalJson(body));
    }
  });

  it('does not depend on key order', () => {
    const x = buildExecution();
    const rand = prng(7);
    const shuffle = (keys: string[]) => [...keys].sort(() => rand() - 0.5);
    expect(canonicalJson(reorder(x.result))).toBe(canonicalJson(x.result));
    expect(canonicalJson(reorder(x.rules, shuffle))).toBe(canonicalJson(x.rules));
  });
});

describe('content hash', () => {
  const hashOf = (input: Parameters<typeof toRows>[0]) => toRows(input).execution.contentHash;
  const fetchedAt = new Date('2026-11-01T10:05:00Z');

  it('is the same for the same content in another key order, and equals the former hash', () => {
    const x = buildExecution();
    const h = hashOf({ ...x, fetchedAt });
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(
      hashOf({ result: reorder(x.result), steps: reorder(x.steps), rules: reorder(x.rules), fetchedAt: new Date() }),
    ).toBe(h);
    const former = createHash('sha256')
      .update(formerCanonicalJson(x.result))
      .update('\0')
      .update(formerCanonicalJson(x.steps))
      .update('\0')
      .update(formerCanonicalJson(x.rules))
      .update('1')
      .digest('hex');
    expect(h).toBe(former);
  });

  it('changes with the content: result, steps or rules', () => {
    const x = buildExecution();
    const h = hashOf({ ...x, fetchedAt });
    const decided = structuredClone(x);
    decided.result.decision = { ...decided.result.decision, type: 'REJECTED' };
    expect(hashOf({ ...decided, fetchedAt })).not.toBe(h);
    const feedback = structuredClone(x.result) as Record<string, unknown>;
    feedback.feedback = { status: 'FRAUD' };
    expect(hashOf({ ...x, result: feedback, fetchedAt })).not.toBe(h);
    expect(hashOf({ ...x, steps: undefined, fetchedAt })).not.toBe(h);
    const rules = structuredClone(x.rules) as { executions: Array<Record<string, unknown>> };
    rules.executions[0].completedAt = '2030-01-01T00:00:00.000Z';
    expect(hashOf({ ...x, rules, fetchedAt })).not.toBe(h);
  });
});
