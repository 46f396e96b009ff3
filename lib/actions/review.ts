'use server';
import { defineAction } from '@/lib/auth/guards';
import { findExecutionJump } from '@/lib/executions/queries';
import { createReveal, endReveal } from '@/lib/pii/reveals';
import { normaliseSearchTerm, saveSearchTerm, SearchRateLimited } from '@/lib/executions/search-terms';
import { saveHiddenColumns } from '@/lib/executions/preferences';
import { UUID_RE } from '@/lib/executions/list-params';
import { hiddenColumnsSchema, hideSchema, revealSchema, searchSchema } from './schemas/review';

/**
 * Turns what was typed into the search box into URL parameters without personal data: an id (a
 * UUID) goes into the URL as it is; anything else (a name, a document number) is stored on the
 * server and the URL carries only its token.
 */
export const saveSearchAction = defineAction(
  { name: 'executions.search', role: 'analyst', schema: searchSchema },
  async ({ term }, user) => {
    const t = normaliseSearchTerm(term);
    if (!t) return { kind: 'clear' as const };
    if (UUID_RE.test(t)) {
      // An execution id opens that execution; any other id (an account) filters the list.
      const id = await findExecutionJump(t.toLowerCase());
      return id ? { kind: 'execution' as const, id } : { kind: 'id' as const, q: t.toLowerCase() };
    }
    try {
      return { kind: 'token' as const, st: await saveSearchTerm(user, t) };
    } catch (err) {
      if (err instanceof SearchRateLimited)
        return { ok: false as const, code: 'CONFLICT' as const, error: err.message };
      throw err;
    }
  },
);

/** Remembers which list columns this user hides. */
export const saveHiddenColumnsAction = defineAction(
  { name: 'executions.columns', role: 'analyst', schema: hiddenColumnsSchema },
  async ({ hidden }, user) => {
    await saveHiddenColumns(user.id, hidden);
    return null;
  },
);

/** Shows one execution's personal data to this user for 15 minutes; the reason goes to the audit log. */
export const revealPersonalDataAction = defineAction(
  { name: 'pii.reveal', role: 'analyst', schema: revealSchema, stepUp: true },
  async ({ executionId, reason }, user) => {
    const r = await createReveal(user, executionId.toLowerCase(), reason);
    if (!r) return { ok: false as const, code: 'INVALID' as const, error: 'This execution is not in the cache.' };
    return {
      ok: true as const,
      data: { expiresAt: r.expiresAt.toISOString() },
      message: 'Personal data is visible to you for 15 minutes.',
    };
  },
);

/** Ends this user's reveal of an execution early. */
export const hidePersonalDataAction = defineAction(
  { name: 'pii.hide', role: 'analyst', schema: hideSchema },
  async ({ executionId }, user) => {
    await endReveal(user, executionId.toLowerCase());
    return null;
  },
);
