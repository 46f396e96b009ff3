import { describe, expect, it } from 'vitest';
import { generateExecution, generatorCacheStats, seedModel } from '@/lib/simulator/generator';
import { IdCodec, Kind } from '@/lib/simulator/ids';
import { imageFor } from '@/lib/simulator/images';
import { inspectImage } from '@/lib/simulator/uploads';

const OPTS = { count: 10_000, days: 90, anchor: new Date('2026-03-01T00:00:00Z') };
const MILLION = { count: 1_000_000, days: 365, anchor: new Date('2026-03-01T00:00:00Z') };

describe('generator: deterministic and O(1) per index', () => {
  it('same seed and index -> the same execution, byte for byte', () => {
    for (const i of [0, 1, 77, 9_999])
      expect(JSON.stringify(generateExecution('s1', i, OPTS))).toBe(JSON.stringify(generateExecution('s1', i, OPTS)));
  });

  it('a different seed -> different ids and data', () => {
    const a = generateExecution('s1', 5, OPTS),
      b = generateExecution('s2', 5, OPTS);
    expect(a.result.workflow.id).not.toBe(b.result.workflow.id);
  });

  it('order of generation does not matter (pure): index 500 is the same before and after others', () => {
    const first = JSON.stringify(generateExecution('pure', 500, OPTS));
    for (let i = 0; i < 50; i++) generateExecution('pure', i * 37, OPTS);
    expect(JSON.stringify(generateExecution('pure', 500, OPTS))).toBe(first);
  });

  it('index 999_999 of a million is generated directly and fast, and its ids decode back to the index', () => {
    const t0 = performance.now();
    const e = generateExecution('big', 999_999, MILLION);
    expect(performance.now() - t0).toBeLessThan(500);
    const codec = new IdCodec('big');
    expect(codec.decode(e.result.workflow.id)).toEqual({ kind: Kind.execution, slot: 0, index: 999_999 });
    const acc = codec.decode(e.result.account.id)!;
    expect(acc.kind).toBe(Kind.account);
    for (const c of e.result.credentials)
      expect(codec.decode(c.id)).toMatchObject({ kind: Kind.credential, index: 999_999 });
  });

  it('ids look like v4 UUIDs and random UUIDs do not decode', () => {
    const codec = new IdCodec('x');
    const id = codec.execution(123);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    for (let i = 0; i < 200; i++) expect(codec.decode(crypto.randomUUID())).toBeNull();
    expect(new IdCodec('y').decode(id)).toBeNull();
  });

  it('generating thousands of indices across a million keeps the caches bounded (no per-execution memory)', () => {
    for (let k = 0; k < 3000; k++) generateExecution('mem', (k * 333_331) % 1_000_000, MILLION);
    const s = generatorCacheStats();
    expect(s.models).toBeLessThanOrEqual(17);
    expect(s.blocks).toBeLessThanOrEqual(17 * 65);
  });

  it('newest first: createdAt decreases strictly with the index, inside the requested range', () => {
    let prev = Infinity;
    for (let i = 0; i < 2000; i++) {
      const t = Date.parse(generateExecution('order', i, OPTS).result.createdAt);
      expect(t).toBeLessThan(prev);
      prev = t;
    }
    const oldest = Date.parse(generateExecution('order', OPTS.count - 1, OPTS).result.createdAt);
    expect(oldest).toBeGreaterThanOrEqual(OPTS.anchor.getTime() - 90 * 86_400_000 - 3_600_000);
  });

  it('countNewerThan inverts the time mapping (used by R12 to merge API executions)', () => {
    const m = seedModel('inv', OPTS);
    for (const i of [0, 1, 500, 9_998]) {
      const t = m.timeOf(i);
      expect(m.countNewerThan(t)).toBe(i);
      expect(m.countNewerThan(t - 1)).toBe(i + 1);
    }
  });

  it('parts point to pictures that pass the spec size rules (ID >= 563 x 355, selfie >= 480 x 640)', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200 && seen.size < 12; i++)
      for (const p of generateExecution('img', i, OPTS).parts) {
        const key = `${p.kind}:${p.variant}`;
        if (seen.has(key) || seen.size >= 12) continue;
        seen.add(key);
        const info = inspectImage(imageFor(p.kind, p.variant).bytes);
        if (p.kind === 'face') expect([info.width, info.height]).toEqual([480, 640]);
        else {
          expect(info.width).toBeGreaterThanOrEqual(600);
          expect(info.height).toBeGreaterThanOrEqual(380);
        }
      }
    expect(seen.size).toBe(12);
  });

  it('pictures are cached and small (a few KB to tens of KB)', () => {
    const a = imageFor('face', 3),
      b = imageFor('face', 3);
    expect(a).toBe(b);
    for (const k of ['document-front', 'document-back', 'face'] as const)
      expect(imageFor(k, 1).bytes.length).toBeLessThan(60_000);
  });

  it('an out-of-range index throws', () => {
    expect(() => generateExecution('s', 10_000, OPTS)).toThrow(RangeError);
    expect(() => generateExecution('s', -1, OPTS)).toThrow(RangeError);
  });
});
