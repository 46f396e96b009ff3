import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db/client';
import { RateLimiter } from '@/lib/idv/rate-limit';
import { postgresSlotStore } from '@/lib/idv/shared-rate-limit';

const store = postgresSlotStore(() => db().$client);

describe('service rate limits shared through Postgres', () => {
  /**
   * A reservation's wait runs from the moment its statement ran: the i-th send time is i intervals
   * after the first, so its wait is that less the time since the first statement ran. Those times
   * (one commit after another on the row's lock) are measured, not allowed for with a fixed margin
   * a loaded machine can exceed; 5 ms cover the rounding between the two clocks.
   */
  const expectWait = (wait: number, intervals: number, took: number) => {
    expect(wait).toBeLessThanOrEqual(intervals * 1000 + 5);
    expect(wait).toBeGreaterThanOrEqual(intervals * 1000 - took - 5);
  };

  it('hands out one send time per interval to concurrent callers, never the same one twice', async () => {
    const key = `test:${randomUUID()}`;
    // A long interval, so that the time the statements themselves take (ms) does not blur it.
    const started = Date.now();
    const waits = (await Promise.all(Array.from({ length: 6 }, () => store.reserve(key, 1000, 0)))).sort(
      (a, b) => a - b,
    );
    const took = Date.now() - started;
    waits.forEach((w, i) => expectWait(w, i, took));
  });

  it('lets a burst go at once, then spaces the rest', async () => {
    const key = `test:${randomUUID()}`;
    const waits: number[] = [];
    const started = Date.now();
    for (let i = 0; i < 5; i++) waits.push(await store.reserve(key, 1000, 2000));
    const took = Date.now() - started;
    expect(waits.slice(0, 3)).toEqual([0, 0, 0]);
    expectWait(waits[3], 1, took);
    expectWait(waits[4], 2, took);
  });

  it('two limiters (two processes) on one key together keep to the rate', async () => {
    const key = `test:${randomUUID()}`;
    const limiters = [0, 1].map(() => new RateLimiter({ ratePerSec: 20, shared: { store, key } }));
    const started = Date.now();
    await Promise.all(limiters.flatMap((l) => Array.from({ length: 10 }, () => l.take())));
    // 20 requests at 20/s: the first at once, the last 19 intervals (950 ms) later; each process alone would take 450 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(limiters.map((l) => l.granted)).toEqual([10, 10]);
  });

  it('falls back to the process’s own bucket while the shared one cannot be reached', async () => {
    const errors: unknown[] = [];
    const broken = { reserve: () => Promise.reject(new Error('database away')) };
    const l = new RateLimiter({
      ratePerSec: 1000,
      shared: { store: broken, key: 'x', onError: (e) => errors.push(e) },
    });
    await l.take();
    await l.take();
    expect(l.granted).toBe(2);
    expect(l.sharedFailures).toBe(2);
    expect(errors).toHaveLength(2);
  });
});
