import 'server-only';
import { and, desc, inArray, notInArray, sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { executions, feedbackEvents, feedbackSubmissions } from '@/lib/db/schema';
import type { FeedbackState } from '@/lib/db/schema/feedback';
import { getBoss, jobDb, QUEUES } from '@/lib/jobs/boss';
import type { DbOrTx, Tx } from '@/lib/db/client';

/** Who moved a submission: a signed-in user, or null for the delivery worker. */
export type Actor = { id: string; email: string } | null;

export interface EventInput {
  submissionId: string;
  executionId: string;
  kind: string;
  from?: FeedbackState | null;
  to?: FeedbackState | null;
  actor: Actor;
  details?: Record<string, unknown>;
}

/** Appends state changes to the history, in one statement. */
export async function recordEvents(tx: Tx, events: EventInput[]): Promise<void> {
  if (!events.length) return;
  await tx.insert(feedbackEvents).values(
    events.map((e) => ({
      submissionId: e.submissionId,
      executionId: e.executionId,
      kind: e.kind,
      fromState: e.from ?? null,
      toState: e.to ?? null,
      actorId: e.actor?.id ?? null,
      actorEmail: e.actor?.email ?? null,
      details: e.details ?? null,
      at: sql`clock_timestamp()`,
    })),
  );
}

export const recordEvent = (tx: Tx, e: EventInput) => recordEvents(tx, [e]);

/**
 * Sets `executions.feedback_delivery` (the list's column and filter) from the latest submission
 * that still counts: rejected and superseded ones are history, not state. "delivering" reads as
 * pending outside the worker.
 */
export async function refreshDeliveryState(tx: Tx, executionIds: string[]): Promise<void> {
  if (!executionIds.length) return;
  await tx
    .update(executions)
    .set({
      feedbackDelivery: sql`(
        select case s.state when 'delivering' then 'pending' else s.state end
        from feedback_submissions s
        where s.execution_id = ${executions.id} and s.state not in ('rejected', 'superseded')
        order by s.submitted_at desc, s.id desc
        limit 1
      )`,
    })
    .where(inArray(executions.id, executionIds));
}

/** Delivery jobs retry a crashed handler a few times; service errors are retried by the handler itself (see deliver.ts). */
const JOB_OPTIONS = { retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: 180 } as const;

/**
 * The queue, started before a transaction opens: starting it runs queries on pg-boss's own
 * connections, which the embedded database (one session for all connections) would make wait
 * for the open transaction, forever.
 */
export const deliveryQueue = (): Promise<PgBoss> => getBoss();

/**
 * Queues the delivery of submissions inside the caller's transaction (one statement however
 * many): the jobs exist exactly when the state change that asked for them is committed.
 */
export async function enqueueDeliveries(
  tx: Tx,
  boss: PgBoss,
  submissionIds: string[],
  startAfter?: Date,
): Promise<void> {
  if (!submissionIds.length) return;
  await boss.insert(
    submissionIds.map((id) => ({
      name: QUEUES.deliverFeedback,
      data: { feedbackId: id },
      singletonKey: id,
      ...JOB_OPTIONS,
      ...(startAfter ? { startAfter: startAfter.toISOString() } : {}),
    })),
    { db: jobDb(tx) },
  );
}

export const enqueueDelivery = (tx: Tx, boss: PgBoss, submissionId: string, startAfter?: Date) =>
  enqueueDeliveries(tx, boss, [submissionId], startAfter);

export type LatestSubmission = Pick<
  typeof feedbackSubmissions.$inferSelect,
  'id' | 'executionId' | 'status' | 'reason' | 'state' | 'submittedByEmail' | 'submittedAt'
>;

/**
 * The latest submission of each execution: any state (the optimistic-concurrency version), or
 * with `effective`, leaving out rejected and superseded ones (the label that still counts).
 */
export async function latestSubmissionsOf(
  dbOrTx: DbOrTx,
  executionIds: string[],
  opts: { effective?: boolean } = {},
): Promise<Map<string, LatestSubmission>> {
  if (!executionIds.length) return new Map();
  const rows = await dbOrTx
    .selectDistinctOn([feedbackSubmissions.executionId], {
      id: feedbackSubmissions.id,
      executionId: feedbackSubmissions.executionId,
      status: feedbackSubmissions.status,
      reason: feedbackSubmissions.reason,
      state: feedbackSubmissions.state,
      submittedByEmail: feedbackSubmissions.submittedByEmail,
      submittedAt: feedbackSubmissions.submittedAt,
    })
    .from(feedbackSubmissions)
    .where(
      and(
        inArray(feedbackSubmissions.executionId, executionIds),
        opts.effective ? notInArray(feedbackSubmissions.state, ['rejected', 'superseded']) : undefined,
      ),
    )
    .orderBy(feedbackSubmissions.executionId, desc(feedbackSubmissions.submittedAt), desc(feedbackSubmissions.id));
  return new Map(rows.map((r) => [r.executionId, r]));
}
