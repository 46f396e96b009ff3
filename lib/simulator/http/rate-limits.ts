import { ApiError } from '../errors';

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
