import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { audit } from '@/lib/audit';
import { lineLogger } from '@/lib/log';
import type { Db } from '@/lib/db/client';
import { feedbackSubmissions } from '@/lib/db/schema';
import type { FeedbackDeliveryError } from '@/lib/db/schema/feedback';
import { IdvHttpError, IdvNetworkError, isNotFound, isPermanent, type IdvClient } from '@/lib/idv';
import { getIdvClient } from '@/lib/server/idv-client';
import { retryDelayMs } from '@/lib/jobs/backoff';
import { claimOne, leaseLapsed, leaseLive, type LeasedTable } from '@/lib/jobs/lease';
import { getBoss, jobDb, QUEUES } from '@/lib/jobs/boss';
import { emitEvent } from '@/lib/webhooks/outbox';
import { deliveryQueue, enqueueDelivery, recordEvent, refreshDeliveryState } from './store';

/**
 * Delivery of one submission to the service (R11), run by the `feedback.deliver` job.
 *
 * Exactly one sender: a submission is claimed by moving it from `pending` to `delivering` in one
 * statement, so a second job for the same submission (a duplicate, a pg-boss retry, a rescue)
 * finds nothing to claim. Only one submission per execution is in flight at a time, so labels
 * reach the service in the order they were given.
 *
 * Service errors never fail the job: a permanent 4xx marks the submission failed (shown with
 * the service's detail and a retry button); anything that may pass (5xx, 429, network) puts it
 * back to pending with the error and queues the next attempt with capped exponential backoff,
 * without a retry limit, so an outage of any length loses nothing.
 *
 * At-least-once, not exactly-once, across a crash: if the process dies after the service
 * accepted the label but before the outcome was stored, the claim's lease runs out and the
 * same label is sent once more. R11 is a PUT of the same body, so the repeat changes nothing.
 */

export interface DeliveryOptions {
  idv?: () => IdvClient;
  /** First retry delay; doubles per attempt. Default 5 s. */
  retryBaseMs?: number;
  /** Longest retry delay. Default 10 minutes. */
  retryMaxMs?: number;
  /** A claim older than this is taken to be from a crashed worker. Default 120 s (the call itself is capped at 60 s). */
  leaseMs?: number;
  /** Time limit of one R11 call including the client's own retries. Default 60 s. */
  callTimeoutMs?: number;
  /**
   * Writes the execution, fetched again after a delivery, into the cache: sync's ingest, given
   * by the process's worker wiring (lib/workers), as feedback sits below sync. None: no refresh.
   */
  refresh?: RefreshExecution | false;
  log?: (line: string) => void;
}

/** The execution as fetched again after a delivery, for the cache. */
export type RefreshExecution = (fetched: {
  result: Awaited<ReturnType<IdvClient['getExecution']>>;
  steps: Awaited<ReturnType<IdvClient['getSteps']>> | undefined;
  rules: Awaited<ReturnType<IdvClient['getRules']>> | undefined;
  fetchedAt: Date;
}) => Promise<{ outcome: string }>;

/** What the delivered and failed events say of the label itself (no personal data: ids, outcome, reason). */
function labelEventFields(sub: {
  id: string;
  execution_id: string;
  status: string;
  reason: string | null;
  attempts: number;
  submitted_at: string | Date;
}) {
  return {
    feedbackId: sub.id,
    executionId: sub.execution_id,
    outcome: sub.status,
    reason: sub.reason,
    attempts: sub.attempts,
    submittedAt: new Date(sub.submitted_at).toISOString(),
  };
}

/**
 * A submission being sent is held from its claim (`last_attempt_at`, kept as the attempt's time)
 * for `leaseMs`; past it, its worker is taken to have died and the rescue or a job claims it again.
 */
const submissions = (leaseMs: number): LeasedTable => ({
  table: 'feedback_submissions',
  key: 'id',
  lease: 'last_attempt_at',
  holds: 'since',
  ms: leaseMs,
  held: sql`state = 'delivering'`,
});

export type DeliveryOutcome = 'delivered' | 'failed' | 'retry_scheduled' | 'busy' | 'nothing_to_do';

const defaults = (o: DeliveryOptions) => ({
  idv: o.idv ?? getIdvClient,
  retryBaseMs: o.retryBaseMs ?? 5_000,
  retryMaxMs: o.retryMaxMs ?? 10 * 60_000,
  leaseMs: o.leaseMs ?? 120_000,
  callTimeoutMs: o.callTimeoutMs ?? 60_000,
  refresh: o.refresh ?? false,
  log: o.log ?? lineLogger('feedback'),
});

export function describeError(err: unknown): FeedbackDeliveryError {
  if (err instanceof IdvHttpError) {
    return {
      status: err.status,
      title: err.title,
      // The raw text stands in when the service's error body did not parse (service-facts).
      detail: err.detail ?? err.rawText?.slice(0, 500),
      message: err.message.slice(0, 1000),
      permanent: isPermanent(err),
    };
  }
  if (err instanceof IdvNetworkError)
    return {
      title: err.timedOut ? 'Timed out' : 'Service unreachable',
      message: err.message.slice(0, 1000),
      permanent: false,
    };
  if (err instanceof Error && err.name === 'TimeoutError')
    return { title: 'Timed out', message: err.message.slice(0, 1000), permanent: false };
  // Our own bugs and unexpected failures are retried: a label is never dropped because of them.
  return { message: (err instanceof Error ? err.message : String(err)).slice(0, 1000), permanent: isPermanent(err) };
}

export async function deliverFeedback(db: Db, id: string, given: DeliveryOptions = {}): Promise<DeliveryOutcome> {
  const o = defaults(given);
  const t = submissions(o.leaseMs);
  const sub = await claimOne<{
    id: string;
    execution_id: string;
    account_id: string;
    status: string;
    reason: string | null;
    attempts: number;
    submitted_by_email: string;
    submitted_by: string;
    submitted_at: string;
    decided_by: string | null;
  }>(db, t, id, {
    free: sql`state = 'pending'`,
    // One label per execution on its way at a time, so they reach the service in the order given.
    also: sql`not exists (
      select 1 from feedback_submissions o
       where o.execution_id = feedback_submissions.execution_id and o.id <> feedback_submissions.id
         and ${leaseLive(t)})`,
    set: sql`state = 'delivering', attempts = attempts + 1, next_attempt_at = null, updated_at = now()`,
    returning: sql`id, execution_id, account_id, status, reason, attempts, submitted_by_email,
              submitted_by, submitted_at, decided_by`,
  });
  if (!sub) return notClaimed(db, id, o);

  try {
    await o
      .idv()
      .setFeedback(
        sub.account_id,
        sub.execution_id,
        { status: sub.status as 'NA', ...(sub.reason ? { reason: sub.reason as 'NA' } : {}) },
        { signal: AbortSignal.timeout(o.callTimeoutMs) },
      );
  } catch (err) {
    return recordFailure(db, sub, err, o);
  }

  await db.transaction(async (tx) => {
    const [moved] = await tx
      .update(feedbackSubmissions)
      .set({ state: 'delivered', deliveredAt: sql`now()`, lastError: null, updatedAt: sql`now()` })
      .where(and(eq(feedbackSubmissions.id, sub.id), eq(feedbackSubmissions.state, 'delivering')))
      .returning({ deliveredAt: feedbackSubmissions.deliveredAt });
    // The webhook commits with the state change, or neither does (lib/webhooks/outbox.ts).
    if (moved)
      await emitEvent(tx, 'feedback.delivered', {
        ...labelEventFields(sub),
        deliveredAt: (moved.deliveredAt ?? new Date()).toISOString(),
        actorUserId: sub.submitted_by,
        approvedByUserId: sub.decided_by,
      });
    await recordEvent(tx, {
      submissionId: sub.id,
      executionId: sub.execution_id,
      kind: 'delivered',
      from: 'delivering',
      to: 'delivered',
      actor: null,
      details: { attempts: sub.attempts },
    });
    await refreshDeliveryState(tx, [sub.execution_id]);
    await audit(
      {
        action: 'feedback.delivered',
        actorEmail: null,
        targetType: 'execution',
        targetId: sub.execution_id,
        ip: null,
        details: {
          submissionId: sub.id,
          status: sub.status,
          reason: sub.reason,
          attempts: sub.attempts,
          submittedBy: sub.submitted_by_email,
        },
      },
      tx,
    );
  });
  o.log(
    `delivered ${sub.id} (${sub.status}${sub.reason ? ` ${sub.reason}` : ''}) for execution ${sub.execution_id} after ${sub.attempts} attempt(s)`,
  );
  if (o.refresh) await refreshAfterDelivery(db, sub.id, sub.execution_id, sub.account_id, o, o.refresh);
  return 'delivered';
}

async function notClaimed(db: Db, submissionId: string, o: ReturnType<typeof defaults>): Promise<DeliveryOutcome> {
  const [s] = await db
    .select({ state: feedbackSubmissions.state, executionId: feedbackSubmissions.executionId })
    .from(feedbackSubmissions)
    .where(eq(feedbackSubmissions.id, submissionId));
  if (!s) {
    o.log(`job for unknown feedback ${submissionId}: ignored`);
    return 'nothing_to_do';
  }
  if (s.state !== 'pending') return 'nothing_to_do';
  // Another label of the same execution is on its way: try again shortly, so the order holds.
  const boss = await deliveryQueue();
  await db.transaction(async (tx) => enqueueDelivery(tx, boss, submissionId, new Date(Date.now() + 2_000)));
  return 'busy';
}

async function recordFailure(
  db: Db,
  sub: {
    id: string;
    execution_id: string;
    attempts: number;
    status: string;
    reason: string | null;
    submitted_by_email: string;
    submitted_by: string;
    submitted_at: string;
  },
  err: unknown,
  o: ReturnType<typeof defaults>,
): Promise<DeliveryOutcome> {
  const error = describeError(err);
  if (error.permanent) {
    await db.transaction(async (tx) => {
      const [moved] = await tx
        .update(feedbackSubmissions)
        .set({ state: 'failed', lastError: error, updatedAt: sql`now()` })
        .where(and(eq(feedbackSubmissions.id, sub.id), eq(feedbackSubmissions.state, 'delivering')))
        .returning({ updatedAt: feedbackSubmissions.updatedAt });
      if (moved)
        await emitEvent(tx, 'feedback.failed', {
          ...labelEventFields(sub),
          failedAt: moved.updatedAt.toISOString(),
          // The service's status and title only: its detail is free text.
          serviceStatus: error.status ?? null,
          serviceTitle: error.title?.slice(0, 200) ?? null,
          actorUserId: sub.submitted_by,
        });
      await recordEvent(tx, {
        submissionId: sub.id,
        executionId: sub.execution_id,
        kind: 'failed',
        from: 'delivering',
        to: 'failed',
        actor: null,
        details: { error, attempts: sub.attempts },
      });
      await refreshDeliveryState(tx, [sub.execution_id]);
      await audit(
        {
          action: 'feedback.delivery_failed',
          actorEmail: null,
          outcome: 'failure',
          targetType: 'execution',
          targetId: sub.execution_id,
          ip: null,
          details: {
            submissionId: sub.id,
            status: error.status ?? null,
            title: error.title ?? null,
            detail: error.detail ?? null,
            submittedBy: sub.submitted_by_email,
          },
        },
        tx,
      );
    });
    o.log(`feedback ${sub.id} refused by the service: ${error.message}`);
    return 'failed';
  }
  const delay = retryDelayMs(
    sub.attempts,
    o.retryBaseMs,
    o.retryMaxMs,
    err instanceof IdvHttpError ? err.retryAfterMs : undefined,
  );
  const next = new Date(Date.now() + delay);
  const boss = await deliveryQueue();
  await db.transaction(async (tx) => {
    await tx
      .update(feedbackSubmissions)
      .set({ state: 'pending', lastError: error, nextAttemptAt: next, updatedAt: sql`now()` })
      .where(and(eq(feedbackSubmissions.id, sub.id), eq(feedbackSubmissions.state, 'delivering')));
    await recordEvent(tx, {
      submissionId: sub.id,
      executionId: sub.execution_id,
      kind: 'attempt_failed',
      from: 'delivering',
      to: 'pending',
      actor: null,
      details: { error, attempts: sub.attempts, nextAttemptAt: next.toISOString() },
    });
    await enqueueDelivery(tx, boss, sub.id, next);
  });
  o.log(
    `feedback ${sub.id} attempt ${sub.attempts} failed (${error.message}); next attempt in ${Math.round(delay / 1000)} s`,
  );
  return 'retry_scheduled';
}

/**
 * "Then refreshes the execution from the service": the cache shows the service's own record of
 * the feedback (feedback.providedAt) and anything that changed with it. A failure here does not
 * touch the delivery; the sync worker's fetch job tries again.
 */
async function refreshAfterDelivery(
  db: Db,
  submissionId: string,
  executionId: string,
  accountId: string,
  o: ReturnType<typeof defaults>,
  refresh: RefreshExecution,
): Promise<void> {
  const idv = o.idv();
  const fetchedAt = new Date();
  const signal = AbortSignal.timeout(o.callTimeoutMs);
  try {
    const result = await idv.getExecution(accountId, executionId, { signal });
    // Steps and rules may be missing (404) for some executions; the stored ones are then kept.
    const [steps, rules] = await Promise.all([
      idv.getSteps(accountId, executionId, { signal }).catch((e) => (isNotFound(e) ? undefined : Promise.reject(e))),
      idv.getRules(accountId, executionId, { signal }).catch((e) => (isNotFound(e) ? undefined : Promise.reject(e))),
    ]);
    const r = await refresh({ result, steps, rules, fetchedAt });
    await db.transaction(async (tx) =>
      recordEvent(tx, { submissionId, executionId, kind: 'refreshed', actor: null, details: { outcome: r.outcome } }),
    );
  } catch (err) {
    const error = describeError(err);
    o.log(`refresh of ${executionId} after feedback failed: ${error.message}`);
    const boss = await getBoss();
    await db.transaction(async (tx) => {
      await recordEvent(tx, { submissionId, executionId, kind: 'refresh_failed', actor: null, details: { error } });
      await boss.send(QUEUES.fetchExecution, { executionId, accountId }, { db: jobDb(tx), startAfter: 30 });
    });
  }
}

/** pg-boss's schema: JOB_SCHEMA where the sync branch introduces it, else pg-boss's default. */
const queueSchema = () => process.env.JOB_SCHEMA || 'pgboss';

/**
 * Safety net, run every minute by the worker: a pending submission whose job is gone (purged,
 * failed after repeated crashes) or a claim whose worker died gets a new job. The claim in
 * deliverFeedback keeps this from ever causing a second delivery.
 */
export async function rescueStuckFeedback(db: Db, options: DeliveryOptions = {}): Promise<number> {
  const o = defaults(options);
  const stuck = await db.execute<{ id: string; execution_id: string; state: string }>(sql`
    select s.id, s.execution_id, s.state from feedback_submissions s
     where ((s.state = 'pending' and coalesce(s.next_attempt_at, s.updated_at) < now() - interval '2 minutes')
         or ${leaseLapsed(submissions(o.leaseMs))})
       and not exists (
         select 1 from ${sql.identifier(queueSchema())}.job j
          where j.name = ${QUEUES.deliverFeedback} and j.data->>'feedbackId' = s.id::text and j.state in ('created', 'retry', 'active'))
     limit 500`);
  const boss = stuck.rows.length ? await deliveryQueue() : null;
  for (const s of stuck.rows) {
    await db.transaction(async (tx) => {
      await recordEvent(tx, {
        submissionId: s.id,
        executionId: s.execution_id,
        kind: 'rescued',
        actor: null,
        details: { state: s.state },
      });
      await enqueueDelivery(tx, boss!, s.id);
    });
  }
  if (stuck.rows.length) o.log(`re-queued ${stuck.rows.length} stalled feedback deliveries`);
  return stuck.rows.length;
}
