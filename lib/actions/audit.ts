'use server';
import { revalidatePath } from 'next/cache';
import { audit } from '@/lib/audit';
import { defineAction, type ActionResult } from '@/lib/auth/guards';
import { getBoss, QUEUES } from '@/lib/jobs/boss';
import { auditVerifyProgressSchema, verifyAuditNowSchema } from './schemas/audit';

/** Where a queued verification stands, in the words the audit page shows. */
export type AuditVerifyState = 'queued' | 'running' | 'done' | 'failed';

const STATE: Record<string, AuditVerifyState> = {
  created: 'queued',
  retry: 'queued',
  active: 'running',
  completed: 'done',
  failed: 'failed',
  cancelled: 'failed',
};

/**
 * "Verify now": the hourly verification of the whole chain, queued at once for the worker (the
 * same job, so a console request never hashes a million entries itself and a restart loses
 * nothing: the job waits in the queue). Its result is recorded for the banner like the hourly one.
 */
export const verifyAuditNowAction = defineAction(
  { name: 'audit.verify_now', role: 'manager', schema: verifyAuditNowSchema },
  async (_input, user): Promise<ActionResult<{ jobId: string }>> => {
    const jobId = await (await getBoss()).send(QUEUES.auditVerify, {});
    if (!jobId)
      return { ok: false, code: 'CONFLICT', error: 'The verification could not be queued; try again in a moment.' };
    await audit({ action: 'audit.verify_now', actor: user, targetType: 'audit_job', targetId: jobId });
    return { ok: true, data: { jobId }, message: 'Verification queued.' };
  },
);

/** The queued verification's state, polled by the audit page until it is done. */
export const getAuditVerifyProgressAction = defineAction(
  { name: 'audit.verify_progress', role: 'manager', schema: auditVerifyProgressSchema },
  async ({ jobId }): Promise<ActionResult<{ state: AuditVerifyState }>> => {
    const job = await (await getBoss()).getJobById(QUEUES.auditVerify, jobId);
    if (!job) return { ok: false, code: 'INVALID', error: 'No such verification.' };
    const state = STATE[job.state] ?? 'queued';
    if (state === 'done' || state === 'failed') revalidatePath('/audit');
    return { ok: true, data: { state } };
  },
);
