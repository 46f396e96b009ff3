/**
 * Token-bucket rate limiter, one per concern (token, account, api, retrieval). `take()` resolves
 * when the caller may send one request; waiters are served strictly in arrival order (FIFO), so
 * a burst of sync jobs cannot starve a reviewer's click that arrived earlier.
 *
 * With `shared`, the bucket is the customer's, held in Postgres for every console and worker
 * together (shared-rate-limit.ts): each turn reserves its send time there. The in-process bucket
 * stays as the fallback while the database cannot be reached (the HTTP layer's 429 handling
 * covers that gap).
 */
import type { SlotStore } from './shared-rate-limit';

export interface RateLimiterOptions {
  ratePerSec: number;
  /** Bucket size: how many requests may go at once after a quiet period. Default 1 (even spacing). */
  burst?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** The limit shared by all processes: its store and key. */
  shared?: { store: SlotStore; key: string; onError?: (err: unknown) => void };
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class RateLimiter {
  readonly ratePerSec: number;
  readonly burst: number;
  private tokens: number;
  private last: number;
  private tail: Promise<void> = Promise.resolve();
  private waiting = 0;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly shared?: RateLimiterOptions['shared'];
  /** Turns served by the local bucket because the shared one could not be reached (diagnostics). */
  sharedFailures = 0;
  /** Requests let through so far (diagnostics: a worker reports them when it stops). */
  granted = 0;

  constructor(opts: RateLimiterOptions) {
    if (!(opts.ratePerSec > 0)) throw new RangeError('ratePerSec must be > 0');
    this.ratePerSec = opts.ratePerSec;
    this.burst = Math.max(1, opts.burst ?? 1);
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? defaultSleep;
    this.shared = opts.shared;
    this.tokens = this.burst;
    this.last = this.now();
  }

  /** Callers currently queued (diagnostics). */
  get pending(): number {
    return this.waiting;
  }

  /** Waits for a slot. A caller's abort signal removes it from the wait without consuming a slot. */
  take(signal?: AbortSignal): Promise<void> {
    this.waiting++;
    const turn = this.tail.then(() => this.acquire(signal));
    // The chain continues even if this waiter gives up.
    this.tail = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn
      .then(() => {
        this.granted++;
      })
      .finally(() => {
        this.waiting--;
      });
  }

  private refill() {
    const t = this.now();
    const elapsed = Math.max(0, t - this.last);
    this.last = t;
    this.tokens = Math.min(this.burst, this.tokens + (elapsed * this.ratePerSec) / 1000);
  }

  private async acquire(signal?: AbortSignal): Promise<void> {
    if (this.shared) {
      signal?.throwIfAborted();
      const interval = 1000 / this.ratePerSec;
      let wait: number | undefined;
      try {
        wait = await this.shared.store.reserve(this.shared.key, interval, (this.burst - 1) * interval);
      } catch (err) {
        this.sharedFailures++;
        this.shared.onError?.(err);
      }
      if (wait !== undefined) {
        if (wait > 0) await this.sleep(Math.ceil(wait));
        return;
      }
    }
    for (;;) {
      signal?.throwIfAborted();
      this.refill();
      if (this.tokens >= 1 - 1e-9) {
        this.tokens -= 1;
        return;
      }
      await this.sleep(Math.ceil(((1 - this.tokens) * 1000) / this.ratePerSec));
    }
  }
}
