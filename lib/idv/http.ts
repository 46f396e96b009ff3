/**
 * The one request function of the client. Every operation, the token request included, goes
 * through `HttpClient.send`, which adds:
 * - `Accept: application/json` and `User-Agent` on every request (missing or suspicious headers
 *   get 400/403 from the service);
 * - a timeout covering the whole exchange, body included (`AbortSignal.timeout`);
 * - the concern's rate limiter before every attempt (a retry is a request too);
 * - retries with capped exponential backoff and full jitter on 429, 5xx and network errors,
 *   honouring `Retry-After` (seconds or HTTP date);
 * - on 401 with the OAuth token: drop that token, fetch a fresh one, retry once;
 * - errors carrying the service's `{title, status, detail}` or its raw text.
 *
 * Non-idempotent requests (POST: account create, part add, prepared data, document upload) are
 * retried only when the service cannot have acted on them: 429 and 503 (refused), and connection
 * failures before anything was sent (ECONNREFUSED, DNS). A timeout, a reset connection or a 500,
 * 502 or 504 after a POST may mean the account or part was created, so the error goes to the
 * caller, which knows whether a duplicate is harmless. GET, PUT and DELETE are retried on all of them.
 */
import { insecureAddressProblem } from '@/lib/env/idv-addresses';
import {
  IdvConfigError,
  IdvHttpError,
  IdvNetworkError,
  IdvParseError,
  redactUrl,
  truncate,
  type ServiceErrorBody,
} from './errors';
import type { RateLimiter } from './rate-limit';
import { metrics, secondsSince } from '@/lib/telemetry/metrics';
import { SpanKind, setSpanAttributes, withSpan } from '@/lib/telemetry/tracing';

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface HttpDeps {
  fetch: FetchLike;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  /** In [0, 1); the jitter source. */
  random: () => number;
}

export interface RetryPolicy {
  /** Retries after the first attempt (not counting the one 401 retry). Default 4. */
  maxRetries: number;
  /** First backoff ceiling; doubles per retry. Default 250 ms. */
  baseDelayMs: number;
  /** Ceiling of one backoff. Default 8 s. */
  maxDelayMs: number;
  /** A longer `Retry-After` is not slept through: the error (with `retryAfterMs`) goes to the caller, e.g. a job queue. Default 60 s. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 4,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/** Supplies the OAuth access token; implemented by `TokenManager`. */
export interface TokenSource {
  getToken(): Promise<string>;
  /** Drops the token if it is still the cached one (so concurrent 401s cause one refetch). */
  invalidate(token?: string): void;
}

export type Auth =
  | { kind: 'none' }
  /** The OAuth access token of the TokenSource (account and retrieval operations). */
  | { kind: 'oauth' }
  /** A transaction-specific token (`api.token`) for uploads and finalize. */
  | { kind: 'bearer'; token: string }
  | { kind: 'basic'; username: string; password: string };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestSpec {
  /** Names the call in errors, e.g. "R2 getExecution". */
  operation: string;
  method: HttpMethod;
  url: string;
  auth: Auth;
  headers?: Record<string, string>;
  /** Built again for every attempt (a FormData or stream cannot always be sent twice). */
  body?: () => BodyInit | undefined;
  /** Shorthand for a JSON body. */
  json?: unknown;
  limiter?: RateLimiter;
  /** Default: true for GET, PUT, DELETE; false for POST. */
  idempotent?: boolean;
  timeoutMs?: number;
  /** The caller's cancellation (e.g. a request that went away); not retried. */
  signal?: AbortSignal;
  /** Called once per request actually sent (the token manager counts them). */
  onSend?: () => void;
  /** Overrides the policy's retry count for this call (e.g. 0 for a health probe). */
  maxRetries?: number;
  /** Non-2xx statuses to return instead of throwing (e.g. 503 with a DOWN body from health). */
  acceptStatus?: (status: number) => boolean;
}

export interface HttpResult {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  contentType: string;
  /** Requests sent, including retries. */
  attempts: number;
}

export interface HttpClientOptions {
  userAgent: string;
  timeoutMs: number;
  retry?: Partial<RetryPolicy>;
  tokens?: TokenSource;
  deps?: Partial<HttpDeps>;
  /** Plain http outside loopback (IDV_ALLOW_INSECURE, test setups). Default false. */
  allowInsecure?: boolean;
}

/** Connection failures that happen before a byte of the request was sent: safe to retry any method. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class HttpClient {
  readonly userAgent: string;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  readonly deps: HttpDeps;
  readonly allowInsecure: boolean;
  private tokens?: TokenSource;

  constructor(opts: HttpClientOptions) {
    this.userAgent = opts.userAgent;
    this.allowInsecure = opts.allowInsecure ?? false;
    this.timeoutMs = opts.timeoutMs;
    this.retry = { ...DEFAULT_RETRY_POLICY, ...withoutUndefined(opts.retry) };
    this.tokens = opts.tokens;
    this.deps = {
      fetch: opts.deps?.fetch ?? ((input, init) => fetch(input, init)),
      sleep: opts.deps?.sleep ?? defaultSleep,
      now: opts.deps?.now ?? Date.now,
      random: opts.deps?.random ?? Math.random,
    };
  }

  /** Set once the token manager exists (it uses this client for its own requests). */
  setTokenSource(tokens: TokenSource) {
    this.tokens = tokens;
  }

  /**
   * Sends the request with retries; resolves with a 2xx response, otherwise throws an IdvError.
   * One span and one observation per call (retries included), by the spec's operation id.
   */
  async send(spec: RequestSpec): Promise<HttpResult> {
    const t0 = performance.now();
    let outcome = 'network';
    try {
      return await withSpan(
        `idv ${spec.operation}`,
        {
          kind: SpanKind.CLIENT,
          attributes: { 'http.request.method': spec.method, 'verdict.idv.operation': spec.operation },
        },
        async () => {
          const result = await this.sendWithRetries(spec);
          setSpanAttributes({ 'http.response.status_code': result.status, 'verdict.idv.attempts': result.attempts });
          return result;
        },
      ).then((result) => {
        outcome = String(result.status);
        return result;
      });
    } catch (err) {
      if (err instanceof IdvHttpError) outcome = String(err.status);
      throw err;
    } finally {
      metrics().idvRequestDuration.observe({ operation: spec.operation, outcome }, secondsSince(t0));
    }
  }

  private async sendWithRetries(spec: RequestSpec): Promise<HttpResult> {
    const idempotent = spec.idempotent ?? spec.method !== 'POST';
    const safeUrl = redactUrl(spec.url);
    // The configured addresses were checked at start-up; this also covers the URLs the service
    // issues in its answers (api.parts, api.workflowExecution), which carry the transaction token.
    const insecure = insecureAddressProblem(spec.url, this.allowInsecure);
    if (insecure) throw new IdvConfigError(`${spec.operation}: ${safeUrl} ${insecure}`);
    let attempts = 0;
    let retries = 0;
    let authRetried = false;
    const maxRetries = spec.maxRetries ?? this.retry.maxRetries;

    for (;;) {
      const headers: Record<string, string> = {
        Accept: 'application/json',
        'User-Agent': this.userAgent,
        ...spec.headers,
      };
      let oauthToken: string | undefined;
      if (spec.auth.kind === 'oauth') {
        if (!this.tokens) throw new Error(`${spec.operation}: no token source configured`);
        oauthToken = await this.tokens.getToken();
        headers.Authorization = `Bearer ${oauthToken}`;
      } else if (spec.auth.kind === 'bearer') {
        headers.Authorization = `Bearer ${spec.auth.token}`;
      } else if (spec.auth.kind === 'basic') {
        headers.Authorization = `Basic ${Buffer.from(`${spec.auth.username}:${spec.auth.password}`).toString('base64')}`;
      }
      let body: BodyInit | undefined;
      if (spec.json !== undefined) {
        body = JSON.stringify(spec.json);
        headers['Content-Type'] ??= 'application/json';
      } else {
        body = spec.body?.();
      }

      // The slot is taken last, right before sending: a request held up by the token fetch
      // must not spend its slot and then go out in a burst with the others.
      if (spec.limiter) await spec.limiter.take(spec.signal);
      spec.signal?.throwIfAborted();

      const timeout = AbortSignal.timeout(spec.timeoutMs ?? this.timeoutMs);
      const signal = spec.signal ? AbortSignal.any([spec.signal, timeout]) : timeout;
      attempts++;
      spec.onSend?.();

      let res: Response;
      let bytes: Uint8Array;
      try {
        res = await this.deps.fetch(spec.url, { method: spec.method, headers, body, signal, redirect: 'follow' });
        bytes = new Uint8Array(await res.arrayBuffer());
      } catch (err) {
        if (spec.signal?.aborted) throw spec.signal.reason ?? err;
        const timedOut = timeout.aborted;
        const code = errorCode(err);
        const failure = new IdvNetworkError({
          operation: spec.operation,
          method: spec.method,
          url: safeUrl,
          timedOut,
          attempts,
          code,
          cause: err,
        });
        const safeToRepeat = idempotent || (!timedOut && code !== undefined && NOT_SENT_CODES.has(code));
        if (safeToRepeat && retries < maxRetries) {
          await this.deps.sleep(this.backoff(retries++));
          continue;
        }
        throw failure;
      }

      if (res.ok || spec.acceptStatus?.(res.status)) {
        return {
          status: res.status,
          headers: res.headers,
          bytes,
          contentType: res.headers.get('content-type') ?? '',
          attempts,
        };
      }

      if (res.status === 401 && spec.auth.kind === 'oauth' && !authRetried && this.tokens) {
        // An expired or revoked access token: one fresh token, one more try.
        authRetried = true;
        this.tokens.invalidate(oauthToken);
        continue;
      }

      if (res.status === 429 || res.status >= 500)
        metrics().idvErrorResponses.inc({ operation: spec.operation, status: String(res.status) });
      const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'), this.deps.now());
      const error = new IdvHttpError({
        operation: spec.operation,
        method: spec.method,
        url: safeUrl,
        status: res.status,
        ...parseErrorBody(bytes),
        retryAfterMs,
        attempts,
        allow: res.headers.get('allow') ?? undefined,
      });
      if (!isRetryableStatus(res.status, idempotent) || retries >= maxRetries) throw error;
      let delay = this.backoff(retries);
      if (retryAfterMs !== undefined) {
        if (retryAfterMs > this.retry.maxRetryAfterMs) throw error;
        delay = retryAfterMs;
      }
      retries++;
      await this.deps.sleep(delay);
    }
  }

  /** Capped exponential backoff with full jitter: random in [0, min(cap, base * 2^retry)). */
  backoff(retry: number): number {
    const ceiling = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** retry);
    return Math.floor(this.deps.random() * ceiling);
  }
}

/** `{...defaults, ...overrides}` where an override left `undefined` keeps the default. */
export function withoutUndefined<T extends object>(o: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function isRetryableStatus(status: number, idempotent: boolean): boolean {
  if (status === 429 || status === 503) return true;
  if (!idempotent) return false;
  return status === 408 || (status >= 500 && status !== 501 && status !== 505);
}

/** `Retry-After`: delay-seconds or an HTTP date. Returns ms from now, or undefined. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value == null) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** The service's `{title, status, detail}` (or an OAuth `{error, error_description}`), else the raw text. */
export function parseErrorBody(bytes: Uint8Array): { body?: ServiceErrorBody; rawText?: string } {
  const text = new TextDecoder().decode(bytes);
  if (!text.trim()) return {};
  try {
    const v = JSON.parse(text) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      const asText = (x: unknown) => (typeof x === 'string' ? x : undefined);
      const title = asText(o.title) ?? asText(o.error);
      const detail = asText(o.detail) ?? asText(o.error_description) ?? asText(o.message);
      const status = typeof o.status === 'number' ? o.status : undefined;
      if (title !== undefined || detail !== undefined) return { body: { title, status, detail } };
    }
  } catch {
    // not JSON: fall through to the raw text
  }
  return { rawText: truncate(text, 2000) };
}

/** Decodes a JSON response body; an empty body is `undefined`. */
export function decodeJson(result: HttpResult, operation: string): unknown {
  const text = new TextDecoder().decode(result.bytes);
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new IdvParseError(
      `${operation} response`,
      [
        {
          code: 'custom',
          path: [],
          message: `not JSON (content-type ${result.contentType || 'none'}): ${truncate(text, 200)}`,
          input: undefined,
        },
      ],
      operation,
      { cause: err },
    );
  }
}

function errorCode(err: unknown): string | undefined {
  // undici puts the system error on `cause` (TypeError: fetch failed { cause: { code: 'ECONNREFUSED' } }).
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
