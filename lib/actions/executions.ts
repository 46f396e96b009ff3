'use server';
import { revalidatePath } from 'next/cache';
import { audit } from '@/lib/audit';
import { defineAction, type ActionResult } from '@/lib/auth/guards';
import { db } from '@/lib/db/client';
import { env } from '@/lib/env';
import { getIdvClient } from '@/lib/server/idv-client';
import { getBoss } from '@/lib/jobs/boss';
import { syncOptionsFromEnv } from '@/lib/sync/config';
import { refreshExecution, type RefreshResult } from '@/lib/sync/refresh';
import { refreshExecutionSchema } from './schemas/executions';

/**
 * "Refresh now": fetches one execution from the service at once (R2 + R7 + R8) and writes it to
 * the cache. When the service does not answer, a fetch is queued instead and the analyst is told.
 */
export const refreshExecutionAction = defineAction(
  { name: 'executions.refresh', role: 'analyst', schema: refreshExecutionSchema },
  async ({ executionId }, user): Promise<ActionResult<{ kind: RefreshResult['kind'] }>> => {
    const jobs = await getBoss().catch(() => undefined);
    const r = await refreshExecution(
      { db: db(), idv: getIdvClient(), jobs, options: syncOptionsFromEnv(env()) },
      executionId,
      { timeoutMs: 15_000 },
    );
    await audit({
      action: 'execution.refresh',
      actor: user,
      targetType: 'execution',
      targetId: executionId.toLowerCase(),
      outcome: r.kind === 'not-cached' ? 'failure' : 'success',
      details: { result: r.kind },
    });
    if (r.kind === 'not-cached') return { ok: false, code: 'INVALID', error: 'This execution is not in the cache.' };
    revalidatePath('/executions', 'layout');
    switch (r.kind) {
      case 'gone':
        return {
          ok: true,
          data: { kind: r.kind },
          message:
            'The service no longer has this execution: its decision is kept, its personal data was removed from the cache.',
        };
      case 'queued':
        return {
          ok: true,
          data: { kind: r.kind },
          message: 'The service did not answer; the refresh is queued and will be retried.',
        };
      default:
        if (!r.complete) {
          const later = r.retryInSec ? ` Verdict checks again in ${r.retryInSec} s.` : '';
          return {
            ok: true,
            data: { kind: r.kind },
            message: `The service has this execution as ${r.status}; its result is not complete yet.${later}`,
          };
        }
        return {
          ok: true,
          data: { kind: r.kind },
          message: r.changed
            ? 'Refreshed: the execution changed at the service.'
            : 'Refreshed: nothing changed at the service.',
        };
    }
  },
);
