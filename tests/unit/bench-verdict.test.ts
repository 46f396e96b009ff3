import { afterEach, describe, expect, it, vi } from 'vitest';
import { benchDatabaseName, breakOption, Checks, pct, ratioLine } from '../../scripts/bench/verdict';

// The benchmarks' exit code rests on this helper: a failed check must give 1, and so must a run
// that made no check at all (a benchmark whose checks were skipped proves nothing).
describe('benchmark verdict helper', () => {
  const exitCode = process.exitCode;
  afterEach(() => {
    process.exitCode = exitCode;
    vi.restoreAllMocks();
  });

  it('takes the nearest-rank percentile of unsorted samples', () => {
    const xs = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect(pct(xs, 50)).toBe(5);
    expect(pct(xs, 95)).toBe(10);
    expect(pct([], 50)).toBeNaN();
  });

  it('sets exit code 1 when any check fails, or when none was made, and 0 when all held', () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const good = new Checks();
    good.check('a', true);
    expect(good.finish()).toBe(0);
    const bad = new Checks();
    bad.check('a', true);
    bad.check('b', false, 'lost 1');
    expect(bad.finish()).toBe(1);
    expect(process.exitCode).toBe(1);
    expect(new Checks().finish()).toBe(1);
  });

  it('reads --break in both spellings and refuses a name the benchmark does not know', () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    expect(breakOption(['lose'] as const, ['--break=lose'])).toBe('lose');
    expect(breakOption(['lose'] as const, ['--break', 'lose'])).toBe('lose');
    expect(breakOption(['lose'] as const, ['--keep'])).toBeNull();
    expect(() => breakOption(['lose'] as const, ['--break=loose'])).toThrow(/can break 'lose'/);
  });

  it('states the ratio as times lower and times the throughput', () => {
    expect(ratioLine('1,000 claims each', { p50: 2, p95: 4, perSec: 300 }, { p50: 6, p95: 8, perSec: 100 })).toBe(
      'ratio, 1,000 claims each: p50 3.0x lower, p95 2.0x lower, 3.00x the throughput',
    );
  });

  it('prefixes database names and refuses unsafe ones', () => {
    vi.stubEnv('BENCH_DB_PREFIX', 'verdict_bench2_');
    expect(benchDatabaseName('cases')).toBe('verdict_bench2_cases');
    expect(() => benchDatabaseName('x"; drop')).toThrow();
    vi.unstubAllEnvs();
  });
});
