import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { audit } from '@/lib/audit';
import type { ActionResult } from '@/lib/auth/guards';
import { hasRole } from '@/lib/auth/roles';
import { claimMinutes, STALE_MESSAGE, type CaseUser } from '@/lib/cases/claim';
import { db, type DbOrTx, type Tx } from '@/lib/db/client';
import { caseReasons, qaReviews } from '@/lib/db/schema';
import type { DecideQaReviewInput } from '@/lib/cases/qa-schema';
import { managerIds, notify } from '@/lib/notifications/notify';

/**
 * The blind re-review. Claiming works like case work's "next case" (lib/cases/claim.ts): one
 * UPDATE whose row comes from `FOR UPDATE SKIP LOCKED`, re-checked against `state = 'open'`, and
 * a claim untouched for CASE_CLAIM_MINUTES returns to the queue. The first analyst never gets
 * their own case: the claim skips it, every action refuses it, and two check constraints hold it
 * in the database.
 */

type Refusal = {
  ok: false;
  code: 'INVALID' | 'CONFLICT' | 'FORBIDDEN';
  error: string;
  fieldErrors?: Record<string, string[]>;
};
const refusal = (code: Refusal['code'], error: string, field?: string): Refusal => ({
  ok: false,
  code,
  error,
  ...(field ? { fieldErrors: { [field]: [error] } } : {}),
});
export const OWN_CASE_MESSAGE = 'You resolved this case: its QA review is for someone else.';

export async function lockQaReview(tx: Tx, reviewId: string) {
  const [r] = await tx.select().from(qaReviews).where(eq(qaReviews.id, reviewId)).for('update');
  return r;
}

export interface ClaimedQaReview {
  reviewId: string;
  executionId: string;
}

/** Claims the oldest waiting QA review that the user did not resolve themselves; null when none. */
export async function claimNextQaReview(user: CaseUser, d = db()): Promise<ActionResult<ClaimedQaReview | null>> {
  await releaseExpiredQaClaims(d);
  return d.transaction(async (tx) => {
    const rows = await tx.execute<{ id: string; execution_id: string }>(sql`
      update ${qaReviews} set state = 'in_review', assignee_id = ${user.id}, claimed_at = now(), version = version + 1
      where id = (
        select id from ${qaReviews} where state = 'open' and first_analyst_id <> ${user.id}
        order by sampled_at, id limit 1 for update skip locked
      ) and state = 'open'
      returning id, execution_id`);
    const row = rows.rows[0];
    if (!row) return { ok: true as const, data: null, message: 'No QA reviews waiting for you.' };
    await audit(
      {
        action: 'qa.claim',
        actor: user,
        targetType: 'execution',
        targetId: row.execution_id,
        details: { reviewId: row.id },
      },
      tx,
    );
    return { ok: true as const, data: { reviewId: row.id, executionId: row.execution_id } };
  });
}

/** Takes one QA review (`me`) or gives it back; a manager may give back anyone's. */
export async function takeQaReview(
  actor: CaseUser,
  input: { reviewId: string; version: number; assignee?: 'me' },
): Promise<ActionResult<{ version: number }>> {
  return db().transaction(async (tx) => {
    const r = await lockQaReview(tx, input.reviewId);
    if (!r) return refusal('INVALID', 'Unknown QA review.', 'reviewId');
    if (r.version !== input.version) return refusal('CONFLICT', STALE_MESSAGE);
    if (r.state !== 'open' && r.state !== 'in_review') return refusal('CONFLICT', 'This QA review is already decided.');
    if (input.assignee === 'me') {
      if (r.firstAnalystId === actor.id) return refusal('FORBIDDEN', OWN_CASE_MESSAGE);
      if (r.assigneeId === actor.id) return { ok: true as const, data: { version: r.version } };
      if (r.assigneeId) return refusal('CONFLICT', 'Someone else is reviewing this case.');
    } else if (r.assigneeId !== actor.id && !hasRole(actor.role, 'manager'))
      return refusal('FORBIDDEN', 'Only a manager may give back a colleague’s QA review.');
    const [after] = await tx
      .update(qaReviews)
      .set(
        input.assignee === 'me'
          ? { state: 'in_review', assigneeId: actor.id, claimedAt: sql`now()`, version: sql`${qaReviews.version} + 1` }
          : { state: 'open', assigneeId: null, claimedAt: null, version: sql`${qaReviews.version} + 1` },
      )
      .where(eq(qaReviews.id, r.id))
      .returning({ version: qaReviews.version });
    await audit(
      {
        action: input.assignee === 'me' ? 'qa.claim' : 'qa.unclaim',
        actor,
        targetType: 'execution',
        targetId: r.executionId,
        details: { reviewId: r.id, ...(r.assigneeId && r.assigneeId !== actor.id ? { tookFrom: r.assigneeId } : {}) },
      },
      tx,
    );
    return { ok: true as const, data: { version: after.version } };
  });
}

/** QA claims untouched for CASE_CLAIM_MINUTES go back to the QA queue (run with the case claims). */
export async function releaseExpiredQaClaims(db: DbOrTx, minutes = claimMinutes()): Promise<number> {
  const rows = await db.execute<{ id: string }>(sql`
    update ${qaReviews} set state = 'open', assignee_id = null, claimed_at = null, version = version + 1
    where id in (
      select id from ${qaReviews} where state = 'in_review' and claimed_at < now() - make_interval(mins => ${minutes})
      order by claimed_at limit 500 for update skip locked
    )
    returning id`);
  return rows.rows.length;
}

/**
 * Records the second reviewer's outcome. Agreement is the same outcome as the first; a different
 * one goes to the managers to settle. Refused, writing nothing, for the first analyst, a claim
 * held by someone else, a stale form or a reason that does not fit the outcome.
 */
export async function decideQaReview(
  actor: CaseUser,
  input: DecideQaReviewInput,
): Promise<ActionResult<{ state: 'agreed' | 'disputed'; version: number }>> {
  return db().transaction(async (tx) => {
    const r = await lockQaReview(tx, input.reviewId);
    if (!r) return refusal('INVALID', 'Unknown QA review.', 'reviewId');
    if (r.firstAnalystId === actor.id) return refusal('FORBIDDEN', OWN_CASE_MESSAGE);
    if (r.version !== input.version) return refusal('CONFLICT', STALE_MESSAGE);
    if (r.state !== 'open' && r.state !== 'in_review') return refusal('CONFLICT', 'This QA review is already decided.');
    if (r.assigneeId && r.assigneeId !== actor.id) return refusal('FORBIDDEN', 'Someone else is reviewing this case.');
    const [reason] = await tx
      .select({ outcomes: caseReasons.outcomes })
      .from(caseReasons)
      .where(and(eq(caseReasons.code, input.reason), eq(caseReasons.active, true)));
    if (!reason || !reason.outcomes.includes(input.outcome))
      return refusal('INVALID', 'Choose one of the listed reasons for this outcome.', 'reason');
    const state = input.outcome === r.firstOutcome ? ('agreed' as const) : ('disputed' as const);
    const [after] = await tx
      .update(qaReviews)
      .set({
        state,
        assigneeId: null,
        claimedAt: null,
        reviewerId: actor.id,
        reviewOutcome: input.outcome,
        reviewReason: input.reason,
        reviewComment: input.comment ?? null,
        reviewedAt: sql`now()`,
        version: sql`${qaReviews.version} + 1`,
      })
      .where(eq(qaReviews.id, r.id))
      .returning({ version: qaReviews.version });
    await audit(
      {
        action: 'qa.review',
        actor,
        targetType: 'execution',
        targetId: r.executionId,
        details: {
          reviewId: r.id,
          caseId: r.caseId,
          outcome: input.outcome,
          reason: input.reason,
          agreed: state === 'agreed',
        },
      },
      tx,
    );
    if (state === 'disputed')
      await notify(tx, {
        kind: 'qa_disagreement',
        to: await managerIds(tx),
        actorId: actor.id,
        executionId: r.executionId,
        caseId: r.caseId,
        onceKey: `qa_disagreement:${r.id}`,
      });
    return {
      ok: true as const,
      data: { state, version: after.version },
      message:
        state === 'agreed'
          ? 'Recorded: you agree with the first outcome.'
          : 'Recorded: a manager will settle the disagreement.',
    };
  });
}
