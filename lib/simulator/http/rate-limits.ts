import { ApiError } from '../errors';
import type { RateLimitSettings, SimulatorStats } from '../types';

// ---------- rate limiting ----------
export class SlidingWindow {
  private hits: number[] = [];
  constructor(
    private readonly limit: number,
    private readonly windowMs = 1000,
  ) {}
  take(now = Date.now()): boolean {
    while (this.hits.length && this.hits[0] <= now - this.windowMs) this.hits.shift();
    if (this.hits.length >= this.limit) return false;
    this.hits.push(now);
    return true;
  }
  reset() {
    this.hits = [];
  }
}
export class Bucket {
  private tokens: number;
  private last = Date.now();
  constructor(
    private readonly rate: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
  }
  take(now = Date.now()): number {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - this.tokens) / this.rate));
  }
  reset() {
    this.tokens = this.burst;
    this.last = Date.now();
  }
}
export const tooMany = (retryAfter: number) =>
  new ApiError(429, 'Request limit exceeded', { 'retry-after': String(retryAfter) });

/**
 * What one rate-limited class of operations (token, account, retrieval) received: requests, the
 * 429s it answered, and the peak, the most requests in any one-second window (half-open, so
 * requests exactly one second apart are in different windows). Counted whether limits are on or not.
 */
export class RateMeter {
  private window: number[] = [];
  private head = 0;
  requests = 0;
  rejected = 0;
  peakPerSec = 0;
  firstAt: number | null = null;
  lastAt: number | null = null;
  hit(now = Date.now()) {
    this.requests++;
    this.firstAt ??= now;
    this.lastAt = now;
    this.window.push(now);
    while (this.window[this.head] <= now - 1000) this.head++;
    if (this.head > 1024) {
      this.window = this.window.slice(this.head);
      this.head = 0;
    }
    this.peakPerSec = Math.max(this.peakPerSec, this.window.length - this.head);
  }
  reset() {
    this.window = [];
    this.head = 0;
    this.requests = 0;
    this.rejected = 0;
    this.peakPerSec = 0;
    this.firstAt = null;
    this.lastAt = null;
  }
}
export type RateClass = 'token' | 'account' | 'retrieval';
export const createRateMeters = (): Record<RateClass, RateMeter> => ({
  token: new RateMeter(),
  account: new RateMeter(),
  retrieval: new RateMeter(),
});

/** Per limited class: requests, 429s, the peak in any one second, and the limit in force (null: limits off). */
export function rateSummary(
  meters: Record<RateClass, RateMeter>,
  limits: RateLimitSettings | null,
): SimulatorStats['rates'] {
  const limitOf = {
    token: limits && { perSec: limits.tokenPerSec, burst: limits.tokenPerSec },
    account: limits && { perSec: limits.accountPerSec, burst: limits.accountBurst },
    retrieval: limits && { perSec: limits.retrievalPerSec, burst: limits.retrievalBurst },
  };
  const out = {} as SimulatorStats['rates'];
  for (const k of ['token', 'account', 'retrieval'] as const) {
    const m = meters[k];
    // The mean rate from the first request to the last (null below two requests).
    const span = m.firstAt !== null && m.lastAt !== null ? (m.lastAt - m.firstAt) / 1000 : 0;
    const meanPerSec = m.requests > 1 && span > 0 ? Math.round(((m.requests - 1) / span) * 100) / 100 : null;
    out[k] = { requests: m.requests, rejected: m.rejected, peakPerSec: m.peakPerSec, meanPerSec, limit: limitOf[k] };
  }
  return out;
}

export function feedbackSummary(writes: Map<string, number>): SimulatorStats['feedback'] {
  let total = 0;
  let repeated = 0;
  for (const n of writes.values()) {
    total += n;
    if (n > 1) repeated++;
  }
  return { writes: total, executions: writes.size, repeated };
}
