/**
 * Token-bucket rate limiter, one per concern (token, account, api, retrieval). `take()` resolves
 * when the caller may send one request; waiters are served strictly in arrival order (FIFO), so
 * a burst of sync jobs cannot starve a reviewer's click that arrived earlier.
 *
 * The limit is per process. The service's limits are per customer: several processes (web and
 * worker) share them, and the HTTP layer's 429 handling covers the rest.
 */
export interface RateLimiterOptions {
  ratePerSec: number;
  /** Bucket size: how many requests may go at once after a quiet period. Default 1 (even spacing). */
  burst?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
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

  constructor(opts: RateLimiterOptions) {
    if (!(opts.ratePerSec > 0)) throw new RangeError('ratePerSec must be > 0');
    this.ratePerSec = opts.ratePerSec;
    this.burst = Math.max(1, opts.burst ?? 1);
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? defaultSleep;
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
    return turn.finally(() => {
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
