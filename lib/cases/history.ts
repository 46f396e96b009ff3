import 'server-only';
import { aliasedTable, desc, eq, inArray } from 'drizzle-orm';
import { db, type Db } from '@/lib/db/client';
import { caseEvents, caseQueues, caseReasons, users } from '@/lib/db/schema';
import type { CaseEventType, CaseOutcome } from '@/lib/db/case-states';

/**
 * The history of a case, oldest first, from `case_events` (append-only): every transition with who
 * made it and when. Ids are resolved to names here (queue, actor, assignee, reason label, the
 * colleague whose claim was taken over) so that the page shows no raw id.
 *
 * Free text (a resolution's comment, a reopening's reason) is written by staff and may name the
 * person, so it is returned only when the viewer has revealed the execution, the rule of the rest
 * of the page and of the case report (lib/evidence/report/case-sections.ts); otherwise the event
 * only says that a comment exists.
 */

export interface CaseEventView {
  id: number;
  type: CaseEventType;
  at: string;
  /** Null for transitions made by Verdict itself (ingest, a forgotten claim returned). */
  actor: string | null;
  queue: string | null;
  assignee: string | null;
  outcome: CaseOutcome | null;
  reason: string | null;
  /** The free text, only under a reveal. */
  comment: string | null;
  /** A comment exists but is withheld (no reveal). */
  commentWithheld: boolean;
  /** A manager took over or resolved a colleague's claim: that colleague's name. */
  overrode: string | null;
  waitedSeconds: number | null;
}

const actor = aliasedTable(users, 'actor');
const assignee = aliasedTable(users, 'assignee');

/** The newest this many events are shown: a case moved by many re-matches stays readable. */
export const CASE_HISTORY_LIMIT = 200;

export async function listCaseEvents(
  caseId: string,
  /** `sealed`: a blind QA review of this case is pending for the viewer (lib/qa/seal.ts). */
  opts: { revealed: boolean; sealed?: boolean },
  d: Db = db(),
): Promise<CaseEventView[]> {
  const rows = await d
    .select({
      id: caseEvents.id,
      type: caseEvents.type,
      at: caseEvents.at,
      actor: actor.name,
      queue: caseQueues.name,
      assignee: assignee.name,
      outcome: caseEvents.outcome,
      reasonCode: caseEvents.reason,
      reasonLabel: caseReasons.label,
      comment: caseEvents.comment,
      details: caseEvents.details,
      waitedSeconds: caseEvents.waitedSeconds,
    })
    .from(caseEvents)
    .leftJoin(actor, eq(actor.id, caseEvents.actorId))
    .leftJoin(assignee, eq(assignee.id, caseEvents.assigneeId))
    .leftJoin(caseQueues, eq(caseQueues.id, caseEvents.queueId))
    .leftJoin(caseReasons, eq(caseReasons.code, caseEvents.reason))
    .where(eq(caseEvents.caseId, caseId))
    .orderBy(desc(caseEvents.at), desc(caseEvents.id))
    .limit(CASE_HISTORY_LIMIT)
    .then((r) => r.reverse());
  const overrodeOf = (details: Record<string, unknown> | null) => {
    const v = details?.overrodeClaimOf ?? details?.tookFrom;
    return typeof v === 'string' ? v : null;
  };
  const overrodeIds = [...new Set(rows.map((r) => overrodeOf(r.details)).filter((v) => v !== null))];
  const names = new Map(
    overrodeIds.length
      ? (await d.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, overrodeIds))).map(
          (p) => [p.id, p.name],
        )
      : [],
  );
  return rows.map((r) => {
    const overrodeId = overrodeOf(r.details);
    // While the case's QA review is blind, its history must not give away the first outcome.
    if (opts.sealed) Object.assign(r, { outcome: null, reasonCode: null, reasonLabel: null, comment: null });
    return {
      id: r.id,
      type: r.type,
      at: r.at.toISOString(),
      actor: r.actor,
      queue: r.queue,
      assignee: r.assignee,
      outcome: r.outcome,
      // A retired or renamed reason keeps its code on old events: its label as it reads now.
      reason: r.reasonCode ? (r.reasonLabel ?? r.reasonCode) : null,
      comment: r.comment && opts.revealed ? r.comment : null,
      commentWithheld: Boolean(r.comment) && !opts.revealed,
      overrode: overrodeId ? (names.get(overrodeId) ?? 'a colleague') : null,
      waitedSeconds: r.waitedSeconds,
    };
  });
}
