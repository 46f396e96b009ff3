// Callback (webhook) delivery: the real body shape, retries with backoff, every attempt recorded.
import type { CallbackAttempt, FaultKnobs } from './types';

export interface CallbackJob {
  executionId: string;
  url: string;
  body: Record<string, unknown>;
}

/** Attempts kept for /__sim/callbacks: the oldest go first, so memory stays bounded. */
export const MAX_ATTEMPTS_KEPT = 5_000;

export class CallbackDispatcher {
  private readonly attempts: CallbackAttempt[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private pending = 0;
  sent = 0;
  private closed = false;

  constructor(
    private readonly faults: () => FaultKnobs,
    private readonly retryDelaysMs: number[],
    private readonly timeoutMs: number,
    private readonly log?: (line: string) => void,
  ) {}

  enqueue(job: CallbackJob) {
    if (Math.random() < this.faults().dropCallbacks) {
      this.record({
        executionId: job.executionId,
        url: job.url,
        attempt: 0,
        at: new Date().toISOString(),
        dropped: true,
        body: job.body,
      });
      return;
    }
    this.pending++;
    void this.attempt(job, 1);
  }

  private async post(job: CallbackJob, attempt: number, duplicate: boolean): Promise<boolean> {
    const body = { ...job.body, callbackSentAt: new Date().toISOString() };
    const rec: CallbackAttempt = {
      executionId: job.executionId,
      url: job.url,
      attempt,
      at: body.callbackSentAt as string,
      body,
      ...(duplicate ? { duplicate: true } : {}),
    };
    this.record(rec);
    try {
      const res = await fetch(job.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'IDV-Simulator-Callback/1.0' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'manual',
      });
      rec.status = res.status;
      await res.arrayBuffer().catch(() => undefined);
      return res.status >= 200 && res.status < 300;
    } catch (e) {
      rec.error =
        e instanceof Error ? (e.cause instanceof Error ? `${e.message}: ${e.cause.message}` : e.message) : String(e);
      return false;
    }
  }

  private async attempt(job: CallbackJob, n: number) {
    if (this.closed) return;
    const ok = await this.post(job, n, false);
    if (ok) {
      this.sent++;
      this.pending--;
      if (this.faults().duplicateCallbacks && !this.closed) await this.post(job, n, true);
      return;
    }
    const delay = this.retryDelaysMs[n - 1];
    if (delay === undefined || this.closed) {
      this.pending--;
      this.log?.(`callback to ${job.url} for ${job.executionId} failed after ${n} attempts`);
      return;
    }
    const t = setTimeout(() => {
      this.timers.delete(t);
      void this.attempt(job, n + 1);
    }, delay);
    t.unref();
    this.timers.add(t);
  }

  private record(rec: CallbackAttempt) {
    this.attempts.push(rec);
    if (this.attempts.length > MAX_ATTEMPTS_KEPT) this.attempts.splice(0, this.attempts.length - MAX_ATTEMPTS_KEPT);
  }

  list(): CallbackAttempt[] {
    return this.attempts.slice();
  }
  pendingCount() {
    return this.pending;
  }
  reset() {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.attempts.length = 0;
    this.pending = 0;
    this.sent = 0;
  }
  close() {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
