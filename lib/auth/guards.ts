import 'server-only';
import { decode } from 'next-auth/jwt';
import { revalidatePath } from 'next/cache';
import { cookies } from 'next/headers';
import { forbidden, redirect } from 'next/navigation';
import { cache } from 'react';
import { z } from 'zod';
import { outageProblem } from '@/lib/http/problem';
import { audit } from '@/lib/audit';
import { asOutage, DATABASE_OUTAGE_TEXT, isDatabaseOutage } from '@/lib/db/outage';
import { logError } from '@/lib/log';
import { currentIp } from '@/lib/request';
import { noteRequestAction, noteRequestUser } from '@/lib/telemetry/context';
import { metrics, secondsSince } from '@/lib/telemetry/metrics';
import { setSpanAttributes, withSpan } from '@/lib/telemetry/tracing';
import { hasRole, type Role } from './roles';
import { countDeniedCall } from './denied-calls';
import { checkSession, type SessionUser } from './sessions';
import { STEP_UP_TEXT, stepUpDue } from './step-up';

export type { SessionUser };

const COOKIE_NAMES = ['__Secure-next-auth.session-token', 'next-auth.session-token'];

type Resolved =
  | { user: SessionUser }
  | { user: null; reason: 'none' | 'invalid' | 'missing' | 'revoked' | 'expired' | 'idle' | 'inactive' };

/**
 * Resolves the signed-in user of this request, once per request, from the session cookie. It is
 * the first database read of every page, action and route: when the database cannot be reached
 * it throws `DatabaseOutageError`, whose digest the error pages know (lib/db/outage.ts).
 */
const resolve = cache(async (): Promise<Resolved> => {
  try {
    const r = await resolveSession();
    // The request's log lines and span name the user by id from here on (lib/log.ts).
    if (r.user) noteRequestUser(r.user.id);
    return r;
  } catch (err) {
    throw asOutage(err);
  }
});

async function resolveSession(): Promise<Resolved> {
  const jar = await cookies();
  const raw = COOKIE_NAMES.map((n) => jar.get(n)?.value).find(Boolean);
  if (!raw) return { user: null, reason: 'none' };
  const token = await decode({ token: raw, secret: process.env.NEXTAUTH_SECRET ?? '' }).catch(() => null);
  if (!token?.sid) {
    // A cookie that does not verify was forged, tampered with, or signed with an old secret: nobody
    // known, so counted per address and minute, one audit entry each (./denied-calls.ts).
    await countDeniedCall('session_cookie', await currentIp());
    return { user: null, reason: 'invalid' };
  }
  const check = await checkSession(String(token.sid));
  return check.ok ? { user: check.user } : { user: null, reason: check.reason };
}

/** The signed-in user, including one whose sign-in still owes its second factor (`pending`). */
export async function getCurrentUser(): Promise<SessionUser | null> {
  return (await resolve()).user;
}

export const SECOND_FACTOR_PAGE = '/login/second-factor';

/** For the second-factor page only: the user of this session, whether or not the factor is proved yet. */
export async function requireSignedIn(): Promise<SessionUser> {
  const r = await resolve();
  if (r.user) return r.user;
  redirect(r.reason === 'none' ? '/login' : `/login?reason=${r.reason}`);
}

/**
 * For pages and layouts: the signed-in user, or a redirect to the sign-in page. A session that
 * still owes its second factor (or must enrol one first) reaches no page but the second-factor one.
 */
export async function requireUser(): Promise<SessionUser> {
  const user = await requireSignedIn();
  if (user.pending) redirect(SECOND_FACTOR_PAGE);
  return user;
}

/** For pages and layouts: the signed-in user with at least `role`, or the 403 page. */
export async function requireRole(role: Role): Promise<SessionUser> {
  const user = await requireUser();
  if (!hasRole(user.role, role)) {
    await audit({ action: 'access.denied', actor: user, outcome: 'denied', details: { required: role } });
    forbidden();
  }
  return user;
}

/** For route handlers: the user, or a JSON 401/403 (503 while the database is unreachable) response to return as is. */
export async function routeUser(
  role: Role,
  /** `stepUp`: the name of what the route does, for the audit entry of a refusal. */
  opts: { stepUp?: string } = {},
): Promise<{ user: SessionUser; error?: never } | { user?: never; error: Response }> {
  let r: Resolved;
  try {
    r = await resolve();
  } catch (err) {
    if (isDatabaseOutage(err)) return { error: outageProblem() };
    throw err;
  }
  if (!r.user || r.user.pending)
    return {
      error: Response.json(
        {
          title: 'Unauthorized',
          status: 401,
          detail: r.user ? 'Finish signing in with your second factor.' : 'Sign in first.',
        },
        { status: 401 },
      ),
    };
  if (!hasRole(r.user.role, role)) {
    await audit({ action: 'access.denied', actor: r.user, outcome: 'denied', details: { required: role } });
    return {
      error: Response.json(
        { title: 'Forbidden', status: 403, detail: `This needs the ${role} role.` },
        { status: 403 },
      ),
    };
  }
  if (opts.stepUp && stepUpDue(r.user)) {
    await auditStepUpRefused(r.user, opts.stepUp);
    return {
      error: Response.json({ title: 'Forbidden', status: 403, code: 'STEP_UP', detail: STEP_UP_TEXT }, { status: 403 }),
    };
  }
  return { user: r.user };
}

async function auditStepUpRefused(user: SessionUser, what: string) {
  await audit({ action: 'auth.step_up', actor: user, outcome: 'denied', details: { what, reason: 'factor_too_old' } });
}

const OUTAGE_RESULT = {
  ok: false,
  code: 'ERROR',
  error: `${DATABASE_OUTAGE_TEXT.title}. ${DATABASE_OUTAGE_TEXT.detail}`,
} as const;

export type ActionResult<T> =
  | { ok: true; data: T; message?: string }
  | {
      ok: false;
      code: 'UNAUTHENTICATED' | 'FORBIDDEN' | 'STEP_UP' | 'INVALID' | 'CONFLICT' | 'ERROR';
      error: string;
      fieldErrors?: Record<string, string[]>;
    };

/**
 * An action's result as is, once the pages under `path` are marked stale if the change went
 * through: a refused or failed one changed nothing they show.
 */
export function revalidatedIfOk<R extends { ok: boolean }>(result: R, path: string): R {
  if (result.ok) revalidatePath(path);
  return result;
}

/**
 * Every server action is built with this: it checks the session and role itself, then parses
 * its input with the action's zod schema, before the body runs. Actions are public endpoints;
 * the page's own check does not protect them. A session that still owes its second factor may
 * call only the actions that prove one (`pending: true`); `stepUp: true` refuses a call whose
 * session proved its factor longer than STEP_UP_MINUTES ago (./step-up.ts), before any write.
 */
export function defineAction<S extends z.ZodType, T>(
  opts: { name: string; role: Role; schema: S; pending?: boolean; stepUp?: boolean },
  handler: (input: z.output<S>, user: SessionUser) => Promise<ActionResult<T> | T>,
): (input: z.input<S> | FormData) => Promise<ActionResult<T>> {
  const run = runAction(opts, handler);
  // Each call is one span and one observation, labelled by the action's name and its outcome.
  return (input) => {
    noteRequestAction(opts.name);
    const t0 = performance.now();
    return withSpan(`action ${opts.name}`, { attributes: { 'verdict.action': opts.name } }, async () => {
      let outcome = 'error';
      try {
        const result = await run(input);
        outcome = result.ok ? 'ok' : result.code.toLowerCase();
        setSpanAttributes({ 'verdict.action.outcome': outcome });
        return result;
      } finally {
        metrics().actionDuration.observe({ action: opts.name, outcome }, secondsSince(t0));
      }
    });
  };
}

function runAction<S extends z.ZodType, T>(
  opts: { name: string; role: Role; schema: S; pending?: boolean; stepUp?: boolean },
  handler: (input: z.output<S>, user: SessionUser) => Promise<ActionResult<T> | T>,
): (input: z.input<S> | FormData) => Promise<ActionResult<T>> {
  return async (input) => {
    let r: Resolved;
    try {
      r = await resolve();
    } catch (err) {
      if (isDatabaseOutage(err)) return OUTAGE_RESULT;
      throw err;
    }
    if (!r.user) return { ok: false, code: 'UNAUTHENTICATED', error: 'Your session has ended. Sign in again.' };
    if (r.user.pending && !opts.pending)
      return { ok: false, code: 'UNAUTHENTICATED', error: 'Finish signing in with your second factor first.' };
    if (!hasRole(r.user.role, opts.role)) {
      await audit({
        action: 'access.denied',
        actor: r.user,
        outcome: 'denied',
        details: { action: opts.name, required: opts.role },
      });
      return { ok: false, code: 'FORBIDDEN', error: `This needs the ${opts.role} role.` };
    }
    if (opts.stepUp && stepUpDue(r.user)) {
      await auditStepUpRefused(r.user, opts.name);
      return { ok: false, code: 'STEP_UP', error: STEP_UP_TEXT };
    }
    const data = input instanceof FormData ? Object.fromEntries(input.entries()) : input;
    const parsed = opts.schema.safeParse(data);
    if (!parsed.success) {
      const fieldErrors: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) (fieldErrors[issue.path.join('.') || '_'] ??= []).push(issue.message);
      return { ok: false, code: 'INVALID', error: parsed.error.issues[0]?.message ?? 'Invalid input.', fieldErrors };
    }
    try {
      const out = await handler(parsed.data, r.user);
      if (out && typeof out === 'object' && 'ok' in out && typeof (out as { ok: unknown }).ok === 'boolean')
        return out as ActionResult<T>;
      return { ok: true, data: out as T };
    } catch (err) {
      logError(`action ${opts.name}`, err);
      // A write cut by an outage may have committed: the answer does not say "nothing was saved".
      if (isDatabaseOutage(err)) return OUTAGE_RESULT;
      return { ok: false, code: 'ERROR', error: 'Something went wrong on our side. Nothing was saved; try again.' };
    }
  };
}
