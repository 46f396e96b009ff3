/**
 * What a log line and a metric know about the request they belong to: its id, route template and
 * (once a guard resolved the session) the user id. Set by the console server around each request
 * (scripts/console-server.ts) and read by the logger (lib/log.ts). Free of `server-only`, and kept
 * on globalThis: the console server (plain Node) and the code Next bundled for the routes are two
 * copies of this module that must share one store.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestContext {
  requestId: string;
  /** The route template (`/executions/[id]`), never the path: paths carry ids. */
  route: string;
  method: string;
  /** Filled in by the session guard (lib/auth/guards.ts). */
  userId?: string;
  /** The server action's name, when the request is one (lib/auth/guards.ts). */
  action?: string;
}

const holder = ((
  globalThis as unknown as { __verdictRequestContext?: AsyncLocalStorage<RequestContext> }
).__verdictRequestContext ??= new AsyncLocalStorage<RequestContext>());

export function runInRequest<T>(ctx: RequestContext, fn: () => T): T {
  return holder.run(ctx, fn);
}

export function requestContext(): RequestContext | undefined {
  return holder.getStore();
}

/** Notes who the request acts for (a user id, never an e-mail: ids are not personal data in the log). */
export function noteRequestUser(userId: string): void {
  const ctx = holder.getStore();
  if (ctx) ctx.userId = userId;
}

export function noteRequestAction(name: string): void {
  const ctx = holder.getStore();
  if (ctx) ctx.action = name;
}
