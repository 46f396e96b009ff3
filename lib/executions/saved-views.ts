import 'server-only';
import { and, asc, eq } from 'drizzle-orm';
import { db } from '@/lib/db/client';
import { savedViews } from '@/lib/db/schema';
import { parseListParams, toSearchParams } from '@/lib/executions/list-params';

/**
 * Personal saved views of the executions list: a name and the list's query, one person's own.
 * Queues stay the managers' shared definitions (lib/cases/queues.ts); a view is only a link.
 */
export interface SavedView {
  id: string;
  name: string;
  query: string;
}

/** At most this many views per person: a short list beside the toolbar, not a second navigation. */
export const SAVED_VIEWS_MAX = 20;

export async function listSavedViews(userId: string): Promise<SavedView[]> {
  return db()
    .select({ id: savedViews.id, name: savedViews.name, query: savedViews.query })
    .from(savedViews)
    .where(eq(savedViews.userId, userId))
    .orderBy(asc(savedViews.name));
}

/**
 * Stores the list's state under a name: filters, sort and page size, in canonical form (parsed and
 * written again, so a hand-made query keeps only what the list understands), never a page position.
 */
export async function saveView(
  userId: string,
  input: { name: string; query: string },
): Promise<{ ok: true; view: SavedView } | { ok: false; error: string }> {
  const query = toSearchParams(parseListParams(new URLSearchParams(input.query)), { withCursor: false }).toString();
  const mine = await listSavedViews(userId);
  if (mine.some((v) => v.name.toLowerCase() === input.name.toLowerCase()))
    return { ok: false, error: `You already have a view named “${input.name}”.` };
  if (mine.length >= SAVED_VIEWS_MAX)
    return { ok: false, error: `You have ${SAVED_VIEWS_MAX} views already; delete one first.` };
  const [view] = await db()
    .insert(savedViews)
    .values({ userId, name: input.name, query })
    .onConflictDoNothing()
    .returning({ id: savedViews.id, name: savedViews.name, query: savedViews.query });
  return view ? { ok: true, view } : { ok: false, error: `You already have a view named “${input.name}”.` };
}

/** Deletes one of the person's own views; another person's id deletes nothing. */
export async function deleteView(userId: string, id: string): Promise<boolean> {
  const rows = await db()
    .delete(savedViews)
    .where(and(eq(savedViews.id, id), eq(savedViews.userId, userId)))
    .returning({ id: savedViews.id });
  return rows.length > 0;
}
