import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { audit } from '@/lib/audit';
import type { ActionResult } from '@/lib/auth/guards';
import { db, type Tx } from '@/lib/db/client';
import { caseNotes, cases, executions } from '@/lib/db/schema';
import { mentionedIds, notify } from '@/lib/notifications/notify';
import { caseOfExecution, type CaseUser } from './claim';
import { enforce, policed } from './policy';

/**
 * The notes thread of an execution: append-only. A note is plain text (the page renders it as
 * text, never as HTML), stays in Verdict (no export, no service call) and is never rewritten: an
 * edit is the note's next version, and both remain. The audit log records that a note was
 * written, not what it says.
 */

export async function addNote(
  actor: CaseUser,
  input: { executionId: string; body: string },
): Promise<ActionResult<{ noteId: string; version: number }>> {
  return policed(actor, () =>
    db().transaction(async (tx) => {
      const [ex] = await tx.select({ id: executions.id }).from(executions).where(eq(executions.id, input.executionId));
      if (!ex) return { ok: false as const, code: 'INVALID' as const, error: 'This execution is not in Verdict.' };
      await mayNote(tx, actor, ex.id);
      const noteId = randomUUID();
      await tx
        .insert(caseNotes)
        .values({ noteId, version: 1, executionId: ex.id, authorId: actor.id, body: input.body });
      // Writing a note is working on the case: the assignee's claim is kept alive.
      await tx
        .update(cases)
        .set({ claimedAt: sql`now()` })
        .where(and(eq(cases.executionId, ex.id), eq(cases.assigneeId, actor.id), eq(cases.state, 'in_review')));
      await audit(
        {
          action: 'case.note',
          actor,
          targetType: 'execution',
          targetId: ex.id,
          details: { noteId, version: 1, chars: input.body.length },
        },
        tx,
      );
      await notifyMentions(tx, actor, ex.id, noteId, input.body);
      return { ok: true as const, data: { noteId, version: 1 }, message: 'Note added.' };
    }),
  );
}

/**
 * Tells each person the note names with `@name`, once per note: an edit that adds a name tells
 * that one, an edit that keeps a name does not tell it again. The notice carries no note text.
 */
async function notifyMentions(tx: Tx, actor: CaseUser, executionId: string, noteId: string, body: string) {
  const to = await mentionedIds(tx, body);
  if (!to.length) return;
  const c = await caseOfExecution(tx, executionId);
  await notify(tx, {
    kind: 'mention',
    to,
    actorId: actor.id,
    executionId,
    caseId: c?.id ?? null,
    onceKey: `mention:${noteId}`,
  });
}

/** Notes follow the case policy of the execution's case (its queue's role), when it has one. */
async function mayNote(tx: Tx, actor: CaseUser, executionId: string) {
  const c = await caseOfExecution(tx, executionId);
  if (c) enforce(actor, 'note', c);
}

/** A new version of one's own note; refused when the note has a newer version than the one edited. */
export async function editNote(
  actor: CaseUser,
  input: { noteId: string; version: number; body: string },
): Promise<ActionResult<{ noteId: string; version: number }>> {
  return policed(actor, () =>
    db().transaction(async (tx) => {
      // Serialises edits of one note (the unique (note, version) key would also refuse a race).
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`note:${input.noteId}`}))`);
      const [latest] = await tx
        .select({ version: caseNotes.version, authorId: caseNotes.authorId, executionId: caseNotes.executionId })
        .from(caseNotes)
        .where(eq(caseNotes.noteId, input.noteId))
        .orderBy(desc(caseNotes.version))
        .limit(1);
      if (!latest) return { ok: false as const, code: 'INVALID' as const, error: 'Unknown note.' };
      if (latest.authorId !== actor.id)
        return { ok: false as const, code: 'FORBIDDEN' as const, error: 'Only its author may edit a note.' };
      if (latest.version !== input.version)
        return {
          ok: false as const,
          code: 'CONFLICT' as const,
          error: 'This note was edited since you opened it. Reload to see it; nothing was saved.',
        };
      await mayNote(tx, actor, latest.executionId);
      const version = latest.version + 1;
      await tx.insert(caseNotes).values({
        noteId: input.noteId,
        version,
        executionId: latest.executionId,
        authorId: actor.id,
        body: input.body,
      });
      await notifyMentions(tx, actor, latest.executionId, input.noteId, input.body);
      await audit(
        {
          action: 'case.note_edit',
          actor,
          targetType: 'execution',
          targetId: latest.executionId,
          details: { noteId: input.noteId, version, chars: input.body.length },
        },
        tx,
      );
      return { ok: true as const, data: { noteId: input.noteId, version }, message: 'Note updated.' };
    }),
  );
}
