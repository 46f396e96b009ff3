/**
 * Errors of the identity-verification client. Every failure the client raises is one of these,
 * so callers (sync jobs, server actions) can decide with `isRetryable` / `isNotFound` /
 * `isPermanent` instead of parsing messages.
 *
 * This module has no server-only marker: it holds no secret and the console may want the
 * classes for `instanceof` checks in shared code.
 */
import type { z } from 'zod';

/** Base class: `operation` names the client call ("R2 getExecution", "T token", ...). */
export class IdvError extends Error {
  readonly operation: string;
  constructor(message: string, operation: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.operation = operation;
  }
}

/** The body the service sends with an error (`{title, status, detail}`; seen for 401 and 429). */
export interface ServiceErrorBody {
  title?: string;
  status?: number;
  detail?: string;
}

export interface IdvHttpErrorInit {
  operation: string;
  method: string;
  url: string;
  status: number;
  body?: ServiceErrorBody;
  rawText?: string;
  retryAfterMs?: number;
  attempts: number;
  allow?: string;
}

/** The service answered with a non-2xx status (after any retries). */
export class IdvHttpError extends IdvError {
  readonly status: number;
  readonly title?: string;
  readonly detail?: string;
  /** The response text when it was not a `{title,status,detail}` body (truncated). */
  readonly rawText?: string;
  readonly method: string;
  /** The URL without credentials, with secret-looking query values redacted. */
  readonly url: string;
  /** From `Retry-After`, when the service sent one. */
  readonly retryAfterMs?: number;
  /** How many requests were sent before giving up (1 = no retry). */
  readonly attempts: number;
  /** The `Allow` header of a 405 (seen for a wrong verb on a part URL). */
  readonly allow?: string;

  constructor(init: IdvHttpErrorInit) {
    const what =
      init.body?.title || init.body?.detail ? describeBody(init.body) : init.rawText ? truncate(init.rawText, 300) : '';
    super(
      `${init.operation}: ${init.method} ${init.url} failed with HTTP ${init.status}${what ? ` (${what})` : ''}` +
        (init.attempts > 1 ? ` after ${init.attempts} attempts` : ''),
      init.operation,
    );
    this.status = init.status;
    this.title = init.body?.title;
    this.detail = init.body?.detail;
    this.rawText = init.rawText;
    this.method = init.method;
    this.url = init.url;
    this.retryAfterMs = init.retryAfterMs;
    this.attempts = init.attempts;
    this.allow = init.allow;
  }
}

/** No HTTP answer: connection refused or reset, DNS failure, or the timeout fired. */
export class IdvNetworkError extends IdvError {
  readonly method: string;
  readonly url: string;
  readonly timedOut: boolean;
  readonly attempts: number;
  /** A machine code from the underlying error when there is one (ECONNREFUSED, ...). */
  readonly code?: string;
  constructor(init: {
    operation: string;
    method: string;
    url: string;
    timedOut: boolean;
    attempts: number;
    code?: string;
    cause?: unknown;
  }) {
    const reason = init.timedOut ? 'timed out' : `network error${init.code ? ` ${init.code}` : ''}`;
    const causeMsg =
      !init.timedOut && init.cause instanceof Error && init.cause.message ? `: ${init.cause.message}` : '';
    super(
      `${init.operation}: ${init.method} ${init.url} ${reason}${causeMsg}` +
        (init.attempts > 1 ? ` after ${init.attempts} attempts` : ''),
      init.operation,
      { cause: init.cause },
    );
    this.method = init.method;
    this.url = init.url;
    this.timedOut = init.timedOut;
    this.attempts = init.attempts;
    this.code = init.code;
  }
}

/** Data from the service is unusable (a required id missing, a wrong type, not JSON). */
export class IdvParseError extends IdvError {
  /** What was being parsed, e.g. "R2 workflow execution result". */
  readonly what: string;
  /** The first failing field path, dotted (`workflow.id`), or '' for the root. */
  readonly path: string;
  readonly issues: z.core.$ZodIssue[];
  constructor(what: string, issues: z.core.$ZodIssue[], operation = what, options?: { cause?: unknown }) {
    const lines = issues.slice(0, 5).map((i) => `${formatPath(i.path) || '(root)'}: ${i.message}`);
    super(
      `${what}: unusable data: ${lines.join('; ')}${issues.length > 5 ? ` (+${issues.length - 5} more)` : ''}`,
      operation,
      options,
    );
    this.what = what;
    this.path = issues[0] ? formatPath(issues[0].path) : '';
    this.issues = issues;
  }
}

/** Our own outgoing request is invalid (checked before anything is sent). */
export class IdvValidationError extends IdvError {
  readonly issues: z.core.$ZodIssue[];
  readonly path: string;
  constructor(operation: string, issues: z.core.$ZodIssue[]) {
    const lines = issues.slice(0, 5).map((i) => `${formatPath(i.path) || '(root)'}: ${i.message}`);
    super(`${operation}: invalid request: ${lines.join('; ')}`, operation);
    this.issues = issues;
    this.path = issues[0] ? formatPath(issues[0].path) : '';
  }
}

/** The client's configuration is missing or wrong; names the environment variable. */
export class IdvConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IdvConfigError';
  }
}

/** Statuses worth another try: rate limited, or a server/gateway failure that may pass. */
const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);

/** True when trying the same call again later may succeed. */
export function isRetryable(err: unknown): boolean {
  if (err instanceof IdvNetworkError) return true;
  if (err instanceof IdvHttpError)
    return RETRYABLE_STATUS.has(err.status) || (err.status >= 500 && err.status !== 501 && err.status !== 505);
  return false;
}

/** 404 or 410: the resource does not exist (deleted, wiped, or never there). */
export function isNotFound(err: unknown): boolean {
  return err instanceof IdvHttpError && (err.status === 404 || err.status === 410);
}

/** True when repeating the call as is cannot succeed (bad request, auth refused, bad data, bad config). */
export function isPermanent(err: unknown): boolean {
  if (err instanceof IdvParseError || err instanceof IdvValidationError || err instanceof IdvConfigError) return true;
  if (err instanceof IdvHttpError) return !isRetryable(err);
  return false;
}

export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.map((p) => String(p)).join('.');
}

function describeBody(body: ServiceErrorBody): string {
  return [body.title, body.detail].filter(Boolean).join(': ');
}

export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

const SECRET_QUERY = /token|secret|sig|signature|key|password|passwd|auth|credential|session|code|^x-amz-/i;

/** A URL safe to log and to put in errors: no user info, secret-looking query values redacted. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    for (const name of [...u.searchParams.keys()]) {
      if (SECRET_QUERY.test(name)) u.searchParams.set(name, 'REDACTED');
    }
    return u.toString();
  } catch {
    return url.replace(/\?.*$/, '');
  }
}
