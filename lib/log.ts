/**
 * The one logger: JSON lines on stdout (pino), one object per line with `level`, `time`, `msg`
 * and, inside a request, `requestId`, `route` (the template, never the path), `method`, `userId`
 * and `action` (lib/telemetry/context.ts), and inside a recorded span `traceId` and `spanId`.
 * Free of `server-only`: the console server and the scripts use it as well as the routes.
 *
 * No personal data goes in: callers log ids, counts, states and classes of errors, never a name,
 * a document number, a search term, a reveal reason or a note. `logError` keeps that for errors,
 * whose messages can quote all of them.
 */
import pino from 'pino';
import { requestContext } from '@/lib/telemetry/context';
import { activeTraceIds } from '@/lib/telemetry/tracing';

function create() {
  // LOG_FILE: the same lines appended to a file as well (a host without a log collector; the browser tests read it).
  const file = process.env.LOG_FILE;
  const destination = file
    ? pino.multistream([
        { stream: pino.destination(1) },
        { stream: pino.destination({ dest: file, append: true, sync: true, mkdir: true }) },
      ])
    : pino.destination(1);
  return pino(
    {
      level: process.env.LOG_LEVEL || 'info',
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin() {
        const ctx = requestContext();
        const ids = activeTraceIds();
        return {
          ...(ctx
            ? { requestId: ctx.requestId, route: ctx.route, method: ctx.method, userId: ctx.userId, action: ctx.action }
            : {}),
          ...(ids ? { traceId: ids.traceId, spanId: ids.spanId } : {}),
        };
      },
    },
    destination,
  );
}

// One instance per process, shared by the console server's copy of this module and Next's.
const holder = globalThis as unknown as { __verdictLog?: pino.Logger };
export const log: pino.Logger = (holder.__verdictLog ??= create());

/** A logger whose lines say which part wrote them (`{ component: 'worker' }`). */
export const logFor = (component: string) => log.child({ component });

/** A `(line) => void` for the code that takes a line logger (workers, scripts). */
export const lineLogger =
  (component: string) =>
  (line: string): void =>
    logFor(component).info(line);

/**
 * What a failure logs: the error's class, its database code and constraint, and where it was
 * thrown. Never the message: drizzle's "Failed query … params: …" carries the parameters, which
 * are search terms, reveal reasons and notes, and service errors can quote personal data.
 */
export function logError(where: string, err: unknown) {
  const e = (err ?? {}) as {
    name?: string;
    code?: string;
    status?: number;
    cause?: { code?: string; constraint?: string };
  };
  // Stack frames only: the stack's first lines repeat the message, parameters included.
  const at =
    err instanceof Error
      ? (err.stack ?? '')
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l.startsWith('at '))
          .slice(0, 3)
      : [];
  const kind = err instanceof Error ? (err.constructor?.name ?? e.name) : typeof err;
  log.error(
    { where, error: kind, code: e.code ?? e.cause?.code, constraint: e.cause?.constraint, status: e.status, at },
    `${where} failed`,
  );
}

/**
 * Names the process in every line (`"process":"console"`) and sends what its libraries print with
 * `console.*` (Next's own messages, pg-boss, drizzle warnings) through the logger too, so every
 * line of a console or worker is JSON. Of an Error printed that way only the class is kept: its
 * message can quote a statement's parameters (see logError).
 */
export function startProcessLog(name: 'console' | 'worker' | 'start'): void {
  log.setBindings({ process: name });
  const g = globalThis as unknown as { __verdictConsoleRouted?: boolean };
  if (g.__verdictConsoleRouted) return;
  g.__verdictConsoleRouted = true;
  const text = (args: unknown[]) =>
    args.map((a) => (typeof a === 'string' ? a : a instanceof Error ? a.constructor.name : safeJson(a))).join(' ');
  console.log = (...a: unknown[]) => log.info(text(a));
  console.info = (...a: unknown[]) => log.info(text(a));
  console.warn = (...a: unknown[]) => log.warn(text(a));
  console.error = (...a: unknown[]) => log.error(text(a));
  console.debug = (...a: unknown[]) => log.debug(text(a));
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}
