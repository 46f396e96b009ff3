'use server';
import { revalidatePath } from 'next/cache';
import { defineAction, revalidatedIfOk } from '@/lib/auth/guards';
import { getQaSamplingProgress } from '@/lib/qa/quality';
import { claimNextQaReview, decideQaReview, takeQaReview } from '@/lib/cases/qa-review';
import { db } from '@/lib/db/client';
import { requestQaSampling } from '@/lib/qa/sample';
import { lastWeek } from '@/lib/qa/week';
import { decideQaReviewSchema, noInputSchema, settleQaReviewSchema, takeQaReviewSchema } from '@/lib/cases/qa-schema';
import { qaSettingsSchema, startQaSamplingSchema } from '@/lib/qa/schema';
import { saveQaSettings } from '@/lib/qa/settings';
import { settleQaReview } from '@/lib/cases/qa-settle';

/**
 * QA sampling (lib/qa): analysts and up take and decide blind re-reviews (never of a case they
 * resolved: lib/cases/qa-review.ts refuses it); managers set the rate, start a sampling and settle
 * disagreements. Each action checks the session and role and parses its input (defineAction).
 */

export const saveQaSettingsAction = defineAction(
  { name: 'qa.settings', role: 'manager', schema: qaSettingsSchema },
  async (input, user) => {
    const r = await saveQaSettings(user, input);
    revalidatePath('/quality');
    return { ok: true as const, data: r, message: r.changed ? 'Sampling rate saved.' : 'Nothing changed.' };
  },
);

export const startQaSamplingAction = defineAction(
  { name: 'qa.sample', role: 'manager', schema: startQaSamplingSchema },
  async (input, user) => {
    const week = input.week ?? lastWeek();
    const r = await requestQaSampling(db(), { week, trigger: 'manual', actor: user });
    return {
      ok: true as const,
      data: r,
      message: r.existing ? `A sampling of the week of ${week} is already running.` : `Sampling the week of ${week}…`,
    };
  },
);

/** The newest sampling run's progress, polled by the quality page while it runs. */
export const getQaSamplingProgressAction = defineAction(
  { name: 'qa.sample_progress', role: 'manager', schema: noInputSchema },
  async () => ({ ok: true as const, data: await getQaSamplingProgress() }),
);

export const claimNextQaReviewAction = defineAction(
  { name: 'qa.next', role: 'analyst', schema: noInputSchema },
  async (_input, user) => claimNextQaReview(user),
);

export const takeQaReviewAction = defineAction(
  { name: 'qa.take', role: 'analyst', schema: takeQaReviewSchema },
  async (input, user) => takeQaReview(user, input),
);

export const decideQaReviewAction = defineAction(
  { name: 'qa.review', role: 'analyst', schema: decideQaReviewSchema },
  async (input, user) => decideQaReview(user, input),
);

export const settleQaReviewAction = defineAction(
  { name: 'qa.settle', role: 'manager', schema: settleQaReviewSchema },
  async (input, user) => revalidatedIfOk(await settleQaReview(user, input), '/quality'),
);
