import { afterEach, describe, expect, it } from 'vitest';
import { IdvClient } from '@/lib/idv/client';
import { RateLimiter } from '@/lib/idv/rate-limit';
import { FakeClock, sendJson, startTokenService, testConfig, type TestServer } from '../../support/idv/fault-server';

/** The most grants that fall in any window of `windowMs`. */
function maxInWindow(times: number[], windowMs: number): number {
  let best = 0;
  for (let i = 0; i < times.length; i++) {
    let n = 0;
    for (let j = i; j < times.length && times[j] < times[i] + windowMs; j++) n++;
    best = Math.max(best, n);
  }
  return best;
}

describe('RateLimiter', () => {
  it('spaces grants at 15/s (one every ~66.7 ms) with burst 1', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ ratePerSec: 15, now: clock.now, sleep: clock.sleep });
    const start = clock.now();
    const times: number[] = [];
    await Promise.all(Array.from({ length: 45 }, () => limiter.take().then(() => times.push(clock.now() - start))));
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(66);
    expect(maxInWindow(times, 1000)).toBeLessThanOrEqual(15);
    expect(times.at(-1)).toBeGreaterThanOrEqual(44 * 66);
    expect(times.at(-1)).toBeLessThanOrEqual(44 * 67 + 5);
  });

  it('holds 15/s in real time too', async () => {
    const limiter = new RateLimiter({ ratePerSec: 15 });
    const start = Date.now();
    await Promise.all(Array.from({ length: 16 }, () => limiter.take()));
    const elapsed = Date.now() - start;
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(1600);
  });

  it('lets a burst through at once, then the rate', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ ratePerSec: 1, burst: 5, now: clock.now, sleep: clock.sleep });
    const start = clock.now();
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      await limiter.take();
      times.push(clock.now() - start);
    }
    expect(times).toEqual([0, 0, 0, 0, 0, 1000, 2000]);
  });

  it('serves waiters first in, first out', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ ratePerSec: 10, now: clock.now, sleep: clock.sleep });
    const order: number[] = [];
    await Promise.all(Array.from({ length: 20 }, (_, i) => limiter.take().then(() => order.push(i))));
    expect(order).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('an aborted waiter leaves the queue without taking a slot', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ ratePerSec: 10, now: clock.now, sleep: clock.sleep });
    await limiter.take();
    const ac = new AbortController();
    ac.abort(new Error('gone'));
    await expect(limiter.take(ac.signal)).rejects.toThrow('gone');
    const before = clock.now();
    await limiter.take();
    expect(clock.now() - before).toBeLessThanOrEqual(100);
  });
});

describe('per-concern limits in the client', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('retrieval calls go out at no more than 15/s by default', async () => {
    const clock = new FakeClock();
    server = await startTokenService((req, res) => {
      sendJson(res, 200, { workflowExecution: { id: 'w' } });
    });
    // Sending time on the fake clock, taken when the client hands the request to fetch.
    const arrivals: number[] = [];
    const recordingFetch: typeof fetch = (input, init) => {
      if (!String(input).includes('/oauth2/token')) arrivals.push(clock.now());
      return fetch(input, init);
    };
    const client = new IdvClient(testConfig(server.url, { retrievalRatePerSec: 15, retrievalBurst: 1 }), {
      now: clock.now,
      sleep: clock.sleep,
      fetch: recordingFetch,
    });
    await Promise.all(Array.from({ length: 30 }, () => client.getStatus('a', 'w')));
    expect(arrivals).toHaveLength(30);
    expect(maxInWindow(arrivals, 1000)).toBeLessThanOrEqual(15);
    // account and upload limits are separate buckets
    expect(client.limiters.account).not.toBe(client.limiters.retrieval);
    expect(client.limiters.retrieval.ratePerSec).toBe(15);
  });
});
