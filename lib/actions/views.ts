'use server';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { defineAction } from '@/lib/auth/guards';
import { deleteView, saveView, type SavedView } from '@/lib/executions/saved-views';

/**
 * Personal saved views of the executions list (lib/executions/saved-views.ts): anyone signed
 * in keeps their own; the session's user is the only owner these actions touch.
 */

const saveViewSchema = z.object({
  name: z.string().trim().min(1, 'Give the view a name.').max(60, 'A view name is at most 60 characters.'),
  query: z.string().max(4000, 'This list state is too long to save.'),
});

export const saveViewAction = defineAction(
  { name: 'executions.view_save', role: 'analyst', schema: saveViewSchema },
  async (input, user) => {
    const r = await saveView(user.id, input);
    if (!r.ok)
      return { ok: false as const, code: 'CONFLICT' as const, error: r.error, fieldErrors: { name: [r.error] } };
    revalidatePath('/executions');
    return { ok: true as const, data: r.view as SavedView, message: `Saved as “${r.view.name}”.` };
  },
);

export const deleteViewAction = defineAction(
  { name: 'executions.view_delete', role: 'analyst', schema: z.object({ id: z.uuid() }) },
  async (input, user) => {
    const gone = await deleteView(user.id, input.id);
    if (!gone) return { ok: false as const, code: 'INVALID' as const, error: 'No such view of yours.' };
    revalidatePath('/executions');
    return { ok: true as const, data: null, message: 'View deleted.' };
  },
);
