import { describe, expect, it } from 'vitest';
import { WEAK_LINK_CUTOFF } from '@/lib/rings/kinds';
import { generateExecution } from '@/lib/simulator';
import { toRows } from '@/lib/sync/map';

/**
 * The demo's rings, worked out from the simulator's data and ingest's link keys alone (a plain
 * union-find here, independent of lib/rings/upkeep.ts): the first `npm start` must show rings of
 * several sizes, one of ten or more executions.
 */
function components(seed: string, count: number, anchor: Date) {
  const holders = new Map<string, string[]>();
  for (let i = 0; i < count; i++) {
    const g = generateExecution(seed, i, { count, days: 90, anchor });
    const rows = toRows({ result: g.result, fetchedAt: anchor });
    for (const k of rows.linkKeys) {
      const key = `${k.kind}:${k.keyHash}`;
      holders.set(key, [...(holders.get(key) ?? []), k.executionId]);
    }
  }
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    const p = parent.get(x) ?? x;
    if (p === x) return x;
    const r = find(p);
    parent.set(x, r);
    return r;
  };
  for (const ids of holders.values())
    if (ids.length >= 2 && ids.length <= WEAK_LINK_CUTOFF)
      for (const id of ids.slice(1)) parent.set(find(id), find(ids[0]));
  const sizes = new Map<string, number>();
  for (const ids of holders.values()) for (const id of ids) sizes.set(find(id), 0);
  const seen = new Set<string>();
  for (const ids of holders.values())
    for (const id of ids)
      if (!seen.has(id)) {
        seen.add(id);
        sizes.set(find(id), (sizes.get(find(id)) ?? 0) + 1);
      }
  return [...sizes.values()].filter((n) => n >= 2).sort((a, b) => b - a);
}

describe('demo rings', () => {
  it('the default demo data holds rings of several sizes, the largest of ten or more', () => {
    const sizes = components('verdict', 1500, new Date('2026-11-20T12:00:00Z'));
    expect(sizes[0]).toBeGreaterThanOrEqual(10);
    expect(new Set(sizes).size).toBeGreaterThanOrEqual(3);
    // Strangers are not chained together: no ring swallows a large share of all executions.
    expect(sizes[0]).toBeLessThan(150);
    // 1,500 generated and mapped executions: seconds alone, more beside a build on a loaded machine.
  }, 180_000);
});
