'use server';
import { defineAction, revalidatedIfOk } from '@/lib/auth/guards';
import { assignCase, bulkAssignCases, claimNextCase } from '@/lib/cases/claim';
import { addNote, editNote } from '@/lib/cases/notes';
import { archiveQueue, createQueue, reorderQueues, updateQueue } from '@/lib/cases/queues';
import { createReason, reorderReasons, setReasonActive, updateReason } from '@/lib/cases/reasons';
import { reopenCase, resolveCase } from '@/lib/cases/resolve';
import {
  addNoteSchema,
  archiveQueueSchema,
  assignCaseSchema,
  bulkAssignSchema,
  createQueueSchema,
  createReasonSchema,
  editNoteSchema,
  nextCaseSchema,
  reopenCaseSchema,
  reorderQueuesSchema,
  reorderReasonsSchema,
  resolveCaseSchema,
  setReasonActiveSchema,
  updateQueueSchema,
  updateReasonSchema,
} from '@/lib/cases/schema';
import { getRematchProgress } from '@/lib/cases/queries';

/**
 * Case work (lib/cases): each action checks the session and role and parses its input itself
 * (defineAction); the rules (who may take whose case, stale versions) live in lib/cases.
 * Analysts work cases; managers and admins also run queues and reopen resolved cases.
 */

export const claimNextCaseAction = defineAction(
  { name: 'case.next', role: 'analyst', schema: nextCaseSchema },
  async (input, user) => claimNextCase(user, { queueId: input.queueId }),
);

export const assignCaseAction = defineAction(
  { name: 'case.assign', role: 'analyst', schema: assignCaseSchema },
  async (input, user) => assignCase(user, input),
);

export const bulkAssignCasesAction = defineAction(
  { name: 'case.assign_bulk', role: 'analyst', schema: bulkAssignSchema },
  async (input, user) => bulkAssignCases(user, input),
);

export const resolveCaseAction = defineAction(
  { name: 'case.resolve', role: 'analyst', schema: resolveCaseSchema },
  async (input, user) => resolveCase(user, input),
);

export const reopenCaseAction = defineAction(
  { name: 'case.reopen', role: 'manager', schema: reopenCaseSchema },
  async (input, user) => reopenCase(user, input),
);

export const addNoteAction = defineAction(
  { name: 'case.note', role: 'analyst', schema: addNoteSchema },
  async (input, user) => addNote(user, input),
);

export const editNoteAction = defineAction(
  { name: 'case.note_edit', role: 'analyst', schema: editNoteSchema },
  async (input, user) => editNote(user, input),
);

export const createQueueAction = defineAction(
  { name: 'queue.create', role: 'manager', schema: createQueueSchema },
  async (input, user) => revalidatedIfOk(await createQueue(user, input), '/queues'),
);

export const updateQueueAction = defineAction(
  { name: 'queue.update', role: 'manager', schema: updateQueueSchema },
  async (input, user) => revalidatedIfOk(await updateQueue(user, input), '/queues'),
);

export const archiveQueueAction = defineAction(
  { name: 'queue.archive', role: 'manager', schema: archiveQueueSchema },
  async (input, user) => revalidatedIfOk(await archiveQueue(user, input), '/queues'),
);

export const reorderQueuesAction = defineAction(
  { name: 'queue.reorder', role: 'manager', schema: reorderQueuesSchema },
  async (input, user) => revalidatedIfOk(await reorderQueues(user, input), '/queues'),
);

/** The latest re-match run's progress, for the queues page while one runs. */
export const getRematchProgressAction = defineAction(
  { name: 'queue.rematch_progress', role: 'manager', schema: nextCaseSchema },
  async () => getRematchProgress(),
);

// The resolution reasons (admins): every change audited in lib/cases/reasons.ts.
export const createCaseReasonAction = defineAction(
  { name: 'case_reason.create', role: 'admin', schema: createReasonSchema },
  async (input, user) => revalidatedIfOk(await createReason(user, input), '/admin/reasons'),
);

export const updateCaseReasonAction = defineAction(
  { name: 'case_reason.update', role: 'admin', schema: updateReasonSchema },
  async (input, user) => revalidatedIfOk(await updateReason(user, input), '/admin/reasons'),
);

export const setCaseReasonActiveAction = defineAction(
  { name: 'case_reason.set_active', role: 'admin', schema: setReasonActiveSchema },
  async (input, user) => revalidatedIfOk(await setReasonActive(user, input), '/admin/reasons'),
);

export const reorderCaseReasonsAction = defineAction(
  { name: 'case_reason.reorder', role: 'admin', schema: reorderReasonsSchema },
  async (input, user) => revalidatedIfOk(await reorderReasons(user, input), '/admin/reasons'),
);
