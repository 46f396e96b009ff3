import 'server-only';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { audit } from '@/lib/audit';
import type { ActionResult } from '@/lib/auth/guards';
import { db, type Tx } from '@/lib/db/client';
import { caseReasons } from '@/lib/db/schema';
import type { CaseUser } from './claim';
import { CASE_OUTCOMES, type CaseOutcome } from '@/lib/db/case-states';

/**
 * The short list of resolution reasons (admins): add, rename, retire or restore, reorder. A
 * reason is never deleted and its code never changes: a resolution stores the code, so every
 * past resolution keeps its reason (shown with its label as it reads now) whatever happens to
 * the list. Retiring only takes it off the resolve form. Every change is audited.
 *
 * Changes of the list are serialised by one advisory lock, so two admins cannot together leave
 * an outcome without a reason or give two reasons the same label.
 */

const LOCK = sql`select pg_advisory_xact_lock(hashtext('case_reasons'))`;

const invalid = (error: string, field?: string) =>
  ({ ok: false, code: 'INVALID', error, ...(field ? { fieldErrors: { [field]: [error] } } : {}) }) as const;

type Row = typeof caseReasons.$inferSelect;

async function lockedList(tx: Tx): Promise<Row[]> {
  await tx.execute(LOCK);
  return tx.select().from(caseReasons).orderBy(asc(caseReasons.sortOrder), asc(caseReasons.code));
}

const labelTaken = (rows: Row[], label: string, except?: string) =>
  rows.some((r) => r.code !== except && r.active && r.label.toLowerCase() === label.toLowerCase());

/** Outcomes that the active reasons, after a change, would leave without any reason. */
const orphaned = (rows: Row[]): CaseOutcome[] =>
  CASE_OUTCOMES.filter((o) => !rows.some((r) => r.active && r.outcomes.includes(o)));

const OUTCOME_WORDS: Record<CaseOutcome, string> = { approve: 'approve', decline: 'decline', escalate: 'escalate' };
const orphanMessage = (o: CaseOutcome[]) =>
  `Every outcome needs a reason: nothing would be left to ${o.map((x) => OUTCOME_WORDS[x]).join(' or ')} with.`;

/** A stable code from the label: upper snake case, made unique against every code ever used. */
function codeFor(label: string, rows: Row[]): string {
  const base =
    label
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .toUpperCase()
      .slice(0, 60) || 'REASON';
  const used = new Set(rows.map((r) => r.code));
  let code = base;
  for (let i = 2; used.has(code); i++) code = `${base}_${i}`;
  return code;
}

export async function createReason(
  actor: CaseUser,
  input: { label: string; outcomes: CaseOutcome[] },
): Promise<ActionResult<{ code: string }>> {
  return db().transaction(async (tx) => {
    const rows = await lockedList(tx);
    if (labelTaken(rows, input.label)) return invalid('A reason with this label exists already.', 'label');
    const code = codeFor(input.label, rows);
    const sortOrder = Math.max(0, ...rows.map((r) => r.sortOrder)) + 1;
    await tx.insert(caseReasons).values({ code, label: input.label, outcomes: input.outcomes, sortOrder });
    await audit(
      {
        action: 'case_reason.create',
        actor,
        targetType: 'case_reason',
        targetId: code,
        details: { label: input.label, outcomes: input.outcomes },
      },
      tx,
    );
    return { ok: true as const, data: { code }, message: `Added "${input.label}".` };
  });
}

/** Renames a reason and/or changes the outcomes it explains; past resolutions keep its code. */
export async function updateReason(
  actor: CaseUser,
  input: { code: string; label: string; outcomes: CaseOutcome[] },
): Promise<ActionResult<null>> {
  return db().transaction(async (tx) => {
    const rows = await lockedList(tx);
    const before = rows.find((r) => r.code === input.code);
    if (!before) return invalid('Unknown reason.', 'code');
    if (labelTaken(rows, input.label, input.code)) return invalid('A reason with this label exists already.', 'label');
    const after = rows.map((r) => (r.code === input.code ? { ...r, outcomes: input.outcomes } : r));
    const lost = orphaned(after);
    if (lost.length) return invalid(orphanMessage(lost), 'outcomes');
    await tx
      .update(caseReasons)
      .set({ label: input.label, outcomes: input.outcomes })
      .where(eq(caseReasons.code, input.code));
    await audit(
      {
        action: 'case_reason.update',
        actor,
        targetType: 'case_reason',
        targetId: input.code,
        details: {
          from: { label: before.label, outcomes: before.outcomes },
          to: { label: input.label, outcomes: input.outcomes },
        },
      },
      tx,
    );
    return { ok: true as const, data: null, message: 'Saved.' };
  });
}

/** Retires a reason (off the resolve form, kept on past resolutions) or restores it. */
export async function setReasonActive(
  actor: CaseUser,
  input: { code: string; active: boolean },
): Promise<ActionResult<null>> {
  return db().transaction(async (tx) => {
    const rows = await lockedList(tx);
    const before = rows.find((r) => r.code === input.code);
    if (!before) return invalid('Unknown reason.', 'code');
    if (before.active === input.active) return { ok: true as const, data: null };
    if (input.active && labelTaken(rows, before.label, before.code))
      return invalid('An active reason has the same label; rename one of them first.', 'label');
    const lost = orphaned(rows.map((r) => (r.code === input.code ? { ...r, active: input.active } : r)));
    if (lost.length) return invalid(orphanMessage(lost), 'code');
    await tx.update(caseReasons).set({ active: input.active }).where(eq(caseReasons.code, input.code));
    await audit(
      {
        action: input.active ? 'case_reason.restore' : 'case_reason.retire',
        actor,
        targetType: 'case_reason',
        targetId: input.code,
        details: { label: before.label },
      },
      tx,
    );
    return { ok: true as const, data: null, message: input.active ? 'Restored.' : 'Retired.' };
  });
}

/** The order of the resolve form's list: the codes given, first to last. */
export async function reorderReasons(actor: CaseUser, input: { codes: string[] }): Promise<ActionResult<null>> {
  return db().transaction(async (tx) => {
    await tx.execute(LOCK);
    const known = await tx
      .select({ code: caseReasons.code })
      .from(caseReasons)
      .where(inArray(caseReasons.code, input.codes));
    if (known.length !== new Set(input.codes).size || known.length !== input.codes.length)
      return invalid('Unknown reason.', 'codes');
    for (const [i, code] of input.codes.entries())
      await tx
        .update(caseReasons)
        .set({ sortOrder: i + 1 })
        .where(eq(caseReasons.code, code));
    await audit(
      { action: 'case_reason.reorder', actor, targetType: 'case_reason', details: { order: input.codes } },
      tx,
    );
    return { ok: true as const, data: null };
  });
}
