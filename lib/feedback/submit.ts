import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { audit } from '@/lib/audit';
import type { ActionResult } from '@/lib/auth/guards';
import type { Role } from '@/lib/auth/roles';
import { db } from '@/lib/db/client';
import { executions, feedbackSubmissions } from '@/lib/db/schema';
import type { FeedbackState } from '@/lib/db/schema/feedback';
import { formatDateTime } from '@/lib/format';
import { managerIds, notify } from '@/lib/notifications/notify';
import type { DbOrTx, Tx } from '@/lib/db/client';
import { inTx } from '@/lib/db/tx';
import { isSealedExecution, sealedExecutionIds } from '@/lib/qa/seal';
import {
  REASON_LABELS,
  STATUS_LABELS,
  type BulkFeedbackInput,
  type FeedbackFormInput,
  type FeedbackReason,
  type FeedbackStatus,
} from './schema';
import { getFourEyes } from './settings';
import {
  deliveryQueue,
  enqueueDeliveries,
  latestSubmissionsOf,
  recordEvents,
  refreshDeliveryState,
  type LatestSubmission,
} from './store';
import type PgBoss from 'pg-boss';

/**
 * The write side of feedback: submit (one or many), retry, approve, reject. Each runs in one
 * transaction that writes the submission, its delivery job and the audit entry together, so a
 * label is either stored with everything needed to deliver it, or not stored at all.
 *
 * The server actions are thin wrappers around these (they add the session and zod checks).
 */

export interface FeedbackUser {
  id: string;
  email: string;
  role: Role;
}

export interface SubmitOutcome {
  submissionId: string;
  state: FeedbackState;
  /** True when nothing new was stored: a repeated request, or the same label already given. */
  duplicate: boolean;
}

export interface BulkOutcome {
  batchId: string;
  created: number;
  awaitingApproval: number;
  /** Executions left alone because their feedback changed after the confirmation was shown. */
  skippedChanged: string[];
  /** Executions left alone because they already carry this label. */
  skippedSame: string[];
  duplicate: boolean;
}

type Latest = LatestSubmission;

/** States in which a submission still stands for the execution's label (so an identical one adds nothing). */
const LIVE: FeedbackState[] = ['awaiting_approval', 'pending', 'delivering', 'delivered'];
/** States a newer label replaces: not yet at the service, and not being sent right now. */
export const REPLACEABLE: FeedbackState[] = ['awaiting_approval', 'pending', 'failed'];

export const describeLabel = (status: string, reason: string | null | undefined) =>
  `${STATUS_LABELS[status as FeedbackStatus] ?? status}${reason && reason !== 'NA' ? ` · ${REASON_LABELS[reason as FeedbackReason] ?? reason}` : ''}`;

export const SEALED_LABEL_MESSAGE =
  'The label is sealed until this case’s QA review is decided, and it cannot be changed until then. The QA review has its own decision form.';

const conflictMessage = (l: Latest) =>
  `This execution's feedback changed since you opened it: ${l.submittedByEmail} submitted ${describeLabel(l.status, l.reason)} at ${formatDateTime(l.submittedAt)}. Review the history, then submit again if you still disagree.`;

function needsApproval(fourEyes: boolean, role: Role, status: FeedbackStatus): boolean {
  return fourEyes && role === 'analyst' && (status === 'FRAUD' || status === 'NOT_FRAUD');
}

/** A submission's id, execution and state: enough to supersede it or to answer its repeated request. */
const submissionState = {
  id: feedbackSubmissions.id,
  executionId: feedbackSubmissions.executionId,
  state: feedbackSubmissions.state,
};

const isSameLabel = (l: Latest | undefined, status: string, reason: string | undefined) =>
  Boolean(l && LIVE.includes(l.state) && l.status === status && (l.reason ?? null) === (reason ?? null));

/**
 * Marks older undelivered submissions of each execution (locked by the caller) as replaced by
 * the new submission given for it.
 */
export async function supersedeOlder(
  tx: Tx,
  newByExecution: Map<string, string>,
  states: FeedbackState[],
  actor: FeedbackUser,
): Promise<void> {
  if (!newByExecution.size) return;
  const older = await tx
    .select(submissionState)
    .from(feedbackSubmissions)
    .where(
      and(
        inArray(feedbackSubmissions.executionId, [...newByExecution.keys()]),
        notInArray(feedbackSubmissions.id, [...newByExecution.values()]),
        inArray(feedbackSubmissions.state, states),
      ),
    );
  if (!older.length) return;
  // The newest submission wins whatever the order: one UPDATE with the replacement per row.
  const byCase = sql.join(
    older.map((o) => sql`when ${o.id}::uuid then ${newByExecution.get(o.executionId)!}::uuid`),
    sql` `,
  );
  await tx
    .update(feedbackSubmissions)
    .set({
      state: 'superseded',
      supersededBy: sql`case ${feedbackSubmissions.id} ${byCase} end`,
      nextAttemptAt: null,
      updatedAt: sql`now()`,
    })
    .where(
      inArray(
        feedbackSubmissions.id,
        older.map((o) => o.id),
      ),
    );
  await recordEvents(
    tx,
    older.map((o) => ({
      submissionId: o.id,
      executionId: o.executionId,
      kind: 'superseded',
      from: o.state,
      to: 'superseded' as const,
      actor,
      details: { by: newByExecution.get(o.executionId) },
    })),
  );
}

interface NewLabel {
  status: FeedbackStatus;
  reason?: FeedbackReason;
  note?: string;
  state: FeedbackState;
  actor: FeedbackUser;
  batchId?: string;
}
interface NewTarget {
  executionId: string;
  accountId: string;
  idempotencyKey: string;
  /** The latest submission the submitter saw (null = none). */
  version: string | null;
}

const labelOf = (i: { status: FeedbackStatus; reason?: FeedbackReason; note?: string }) => ({
  status: i.status,
  reason: i.reason,
  note: i.note,
});

/**
 * Stores one label for each target with its event, replaces what it outdates, and queues the
 * deliveries that may start now: a fixed handful of statements however many targets.
 */
async function insertSubmissions(tx: Tx, boss: PgBoss, label: NewLabel, targets: NewTarget[]): Promise<string[]> {
  if (!targets.length) return [];
  const rows = await tx
    .insert(feedbackSubmissions)
    .values(
      targets.map((t) => ({
        executionId: t.executionId,
        accountId: t.accountId,
        status: label.status,
        reason: label.reason ?? null,
        note: label.note ?? null,
        state: label.state,
        submittedBy: label.actor.id,
        submittedByEmail: label.actor.email,
        // clock_timestamp, not now(): submissions serialized by the execution's row lock must sort in lock order.
        submittedAt: sql`clock_timestamp()`,
        idempotencyKey: t.idempotencyKey,
        baseSubmissionId: t.version,
        batchId: label.batchId ?? null,
      })),
    )
    .returning({ id: feedbackSubmissions.id, executionId: feedbackSubmissions.executionId });
  await recordEvents(
    tx,
    rows.map((r) => ({
      submissionId: r.id,
      executionId: r.executionId,
      kind: 'submitted',
      to: label.state,
      actor: label.actor,
      details: label.batchId ? { batchId: label.batchId } : undefined,
    })),
  );
  // A label waiting for approval only replaces other waiting ones; what is already on its way stays until the approval.
  await supersedeOlder(
    tx,
    new Map(rows.map((r) => [r.executionId, r.id])),
    label.state === 'pending' ? REPLACEABLE : ['awaiting_approval'],
    label.actor,
  );
  if (label.state === 'pending')
    await enqueueDeliveries(
      tx,
      boss,
      rows.map((r) => r.id),
    );
  return rows.map((r) => r.id);
}

/** `within`: the caller's transaction (resolving a case labels in the same one), else a new one. */
export async function submitFeedback(
  actor: FeedbackUser,
  input: FeedbackFormInput,
  within: DbOrTx = db(),
): Promise<ActionResult<SubmitOutcome>> {
  const boss = await deliveryQueue();
  return inTx(within, async (tx) => {
    // The row lock serializes everyone labelling this execution: the version check below sees every earlier commit.
    const [ex] = await tx
      .select({ id: executions.id, accountId: executions.accountId })
      .from(executions)
      .where(eq(executions.id, input.executionId))
      .for('update');
    if (!ex) {
      return {
        ok: false as const,
        code: 'INVALID' as const,
        error: 'This execution is not in Verdict.',
        fieldErrors: { executionId: ['This execution is not in Verdict.'] },
      };
    }
    // A label sealed for the actor (lib/qa/seal.ts) is neither changed nor named: the answers below
    // ("already labelled …", "changed since …") would tell it, and with it the first outcome.
    if (await isSealedExecution(tx, ex.id, actor.id))
      return { ok: false as const, code: 'FORBIDDEN' as const, error: SEALED_LABEL_MESSAGE };

    const [again] = await tx
      .select(submissionState)
      .from(feedbackSubmissions)
      .where(
        and(
          eq(feedbackSubmissions.submittedBy, actor.id),
          eq(feedbackSubmissions.idempotencyKey, input.idempotencyKey),
        ),
      );
    if (again) {
      if (again.executionId !== ex.id)
        return { ok: false as const, code: 'INVALID' as const, error: 'Reload the page: the form is out of date.' };
      return {
        ok: true as const,
        data: { submissionId: again.id, state: again.state, duplicate: true },
        message: 'Already stored; it was not submitted twice.',
      };
    }

    const latest = (await latestSubmissionsOf(tx, [ex.id])).get(ex.id);
    if (isSameLabel(latest, input.status, input.reason)) {
      return {
        ok: true as const,
        data: { submissionId: latest!.id, state: latest!.state, duplicate: true },
        message: `${latest!.submittedByEmail} already labelled it ${describeLabel(latest!.status, latest!.reason)}; nothing new was stored${input.note ? ' (your note was not saved)' : ''}.`,
      };
    }
    if ((latest?.id ?? 'none') !== input.version)
      return {
        ok: false as const,
        code: 'CONFLICT' as const,
        // No submission at all yet the form names one: an outdated or hand-made form.
        error: latest ? conflictMessage(latest) : 'Reload the page: the form is out of date.',
      };

    const state: FeedbackState = needsApproval((await getFourEyes(tx)).enabled, actor.role, input.status)
      ? 'awaiting_approval'
      : 'pending';
    const [id] = await insertSubmissions(tx, boss, { ...labelOf(input), state, actor }, [
      {
        executionId: ex.id,
        accountId: ex.accountId,
        idempotencyKey: input.idempotencyKey,
        version: latest?.id ?? null,
      },
    ]);
    await refreshDeliveryState(tx, [ex.id]);
    if (state === 'awaiting_approval')
      await notify(tx, {
        kind: 'approval_waiting',
        to: await managerIds(tx),
        actorId: actor.id,
        executionId: ex.id,
        onceKey: `approval:${id}`,
        details: { count: 1 },
      });
    await audit(
      {
        action: 'feedback.submit',
        actor,
        targetType: 'execution',
        targetId: ex.id,
        details: {
          submissionId: id,
          status: input.status,
          reason: input.reason ?? null,
          state,
          note: Boolean(input.note),
        },
      },
      tx,
    );
    return {
      ok: true as const,
      data: { submissionId: id, state, duplicate: false },
      message:
        state === 'awaiting_approval'
          ? 'Stored. A manager approves it before it is sent.'
          : 'Stored. Sending it to the service…',
    };
  });
}

export async function submitBulkFeedback(
  actor: FeedbackUser,
  input: BulkFeedbackInput,
): Promise<ActionResult<BulkOutcome>> {
  const ids = [...input.executionIds].sort();
  const keyOf = (executionId: string) => `${input.idempotencyKey}:${executionId}`;
  const boss = await deliveryQueue();
  return db().transaction(async (tx) => {
    const rows = await tx
      .select({ id: executions.id, accountId: executions.accountId })
      .from(executions)
      .where(inArray(executions.id, ids))
      .orderBy(executions.id)
      .for('update');
    if (rows.length !== ids.length) {
      const found = new Set(rows.map((r) => r.id));
      const missing = ids.filter((id) => !found.has(id)).length;
      return {
        ok: false as const,
        code: 'INVALID' as const,
        error: `${missing} of the selected executions ${missing === 1 ? 'is' : 'are'} not in Verdict; nothing was labelled.`,
      };
    }
    // The confirmation leaves sealed executions out; a request that names one is refused whole.
    const sealed = (await sealedExecutionIds(tx, actor.id, ids)).size;
    if (sealed)
      return {
        ok: false as const,
        code: 'FORBIDDEN' as const,
        error: `${sealed} of the selected executions ${sealed === 1 ? 'has its label' : 'have their labels'} sealed until a QA review is decided; nothing was labelled.`,
      };

    const previous = await tx
      .select({ batchId: feedbackSubmissions.batchId, state: feedbackSubmissions.state })
      .from(feedbackSubmissions)
      .where(
        and(eq(feedbackSubmissions.submittedBy, actor.id), inArray(feedbackSubmissions.idempotencyKey, ids.map(keyOf))),
      );
    if (previous.length) {
      return {
        ok: true as const,
        data: {
          batchId: previous[0].batchId!,
          created: previous.length,
          awaitingApproval: previous.filter((p) => p.state === 'awaiting_approval').length,
          skippedChanged: [],
          skippedSame: [],
          duplicate: true,
        },
        message: 'Already stored; it was not submitted twice.',
      };
    }

    const latest = await latestSubmissionsOf(tx, ids);
    const batchId = randomUUID();
    const state: FeedbackState = needsApproval((await getFourEyes(tx)).enabled, actor.role, input.status)
      ? 'awaiting_approval'
      : 'pending';
    const out: BulkOutcome = {
      batchId,
      created: 0,
      awaitingApproval: 0,
      skippedChanged: [],
      skippedSame: [],
      duplicate: false,
    };
    const targets: NewTarget[] = [];
    for (const ex of rows) {
      const l = latest.get(ex.id);
      if (isSameLabel(l, input.status, input.reason)) {
        out.skippedSame.push(ex.id);
        continue;
      }
      if ((l?.id ?? 'none') !== input.versions[ex.id]) {
        out.skippedChanged.push(ex.id);
        continue;
      }
      targets.push({
        executionId: ex.id,
        accountId: ex.accountId,
        idempotencyKey: keyOf(ex.id),
        version: l?.id ?? null,
      });
    }
    await insertSubmissions(tx, boss, { ...labelOf(input), state, actor, batchId }, targets);
    const touched = targets.map((t) => t.executionId);
    out.created = targets.length;
    if (state === 'awaiting_approval') out.awaitingApproval = targets.length;
    await refreshDeliveryState(tx, touched);
    // One notice per batch, not one per label: a bulk of 200 is one thing to approve.
    if (state === 'awaiting_approval' && targets.length)
      await notify(tx, {
        kind: 'approval_waiting',
        to: await managerIds(tx),
        actorId: actor.id,
        executionId: targets.length === 1 ? targets[0].executionId : null,
        onceKey: `approval:batch:${batchId}`,
        details: { count: targets.length },
      });
    await audit(
      {
        action: 'feedback.submit_bulk',
        actor,
        targetType: 'feedback_batch',
        targetId: batchId,
        details: {
          status: input.status,
          reason: input.reason ?? null,
          state,
          created: out.created,
          skippedChanged: out.skippedChanged.length,
          skippedSame: out.skippedSame.length,
          executionIds: touched,
        },
      },
      tx,
    );
    const parts = [
      `${out.created} stored${state === 'awaiting_approval' ? ' for a manager’s approval' : ' and being sent'}`,
    ];
    if (out.skippedSame.length) parts.push(`${out.skippedSame.length} already had this label`);
    if (out.skippedChanged.length)
      parts.push(`${out.skippedChanged.length} skipped because their feedback changed since you opened this`);
    return { ok: true as const, data: out, message: `${parts.join('; ')}.` };
  });
}

export type Decision = { ok: false; code: 'CONFLICT' | 'INVALID' | 'FORBIDDEN'; error: string } | null;

/** Loads a submission with its execution locked (the same lock submitFeedback takes), or says why not. */
