import 'server-only';
import { eq } from 'drizzle-orm';
import { db } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { CUSTOMISED, hiddenColumnsOf, type ListColumnId } from '@/lib/executions/columns';

/** The list columns this user hides (the defaults until they change anything). */
export async function getHiddenColumns(userId: string): Promise<ListColumnId[]> {
  const [row] = await db().select({ hidden: users.hiddenColumns }).from(users).where(eq(users.id, userId)).limit(1);
  return hiddenColumnsOf(row?.hidden);
}

/** Stores the hidden list columns; the marker records that the user chose (even "show all"). */
export async function saveHiddenColumns(userId: string, hidden: ListColumnId[]): Promise<void> {
  await db()
    .update(users)
    .set({ hiddenColumns: [CUSTOMISED, ...new Set(hidden)] })
    .where(eq(users.id, userId));
}
