/**
 * OAuth access token of the service (operation T): client credentials, HTTP Basic, no refresh
 * token (fetch a new one). One token is shared by the whole process:
 * - concurrent callers share one request in flight (single flight);
 * - it is refreshed `refreshMarginSec` (default 300 s, at most half its lifetime) before expiry,
 *   read from `expires_in` and the JWT `exp` claim (the earlier wins: the service caches tokens,
 *   so a token handed out again may be older than `expires_in` suggests);
 * - token requests pass the token limiter (the token service allows 10/s, then 429);
 * - if a refresh fails while the old token is still valid, the old token is used meanwhile.
 */
import { decodeJwt } from 'jose';
import { parseOrThrow, TokenResponseSchema } from './schemas';
import { decodeJson, type HttpClient, type TokenSource } from './http';
import type { RateLimiter } from './rate-limit';
import { metrics } from '@/lib/telemetry/metrics';

export interface TokenManagerOptions {
  authUrl: string;
  clientId: string;
  clientSecret: string;
  http: HttpClient;
  limiter?: RateLimiter;
  /** Refresh this long before expiry (capped at half the lifetime). Default 300. */
  refreshMarginSec?: number;
  /** Assumed lifetime when neither `expires_in` nor `exp` is given. Default 3600 (the service's default). */
  defaultLifetimeSec?: number;
  now?: () => number;
}

interface CachedToken {
  token: string;
  obtainedAt: number;
  expiresAt: number;
  refreshAt: number;
}

/** Never treat a token as shorter-lived than this, so a skewed clock cannot cause a fetch per call. */
const MIN_LIFETIME_MS = 10_000;

/** Default of `refreshMarginSec`. */
export const DEFAULT_REFRESH_MARGIN_SEC = 300;

/** How long after it was obtained a token of this lifetime is renewed: `refreshMarginSec` before expiry, at most half its lifetime. */
export function renewAfterMs(lifetimeMs: number, refreshMarginSec = DEFAULT_REFRESH_MARGIN_SEC): number {
  return lifetimeMs - Math.min(refreshMarginSec * 1000, lifetimeMs / 2);
}

export class TokenManager implements TokenSource {
  /** Requests sent to the token service (retries included); benchmarks report it. */
  tokenRequests = 0;
  // `#` fields: the secret and the token stay out of logs, util.inspect and JSON of the client.
  #current?: CachedToken;
  #inflight?: Promise<CachedToken>;
  readonly #opts: Required<Omit<TokenManagerOptions, 'limiter'>> & { limiter?: RateLimiter };

  constructor(opts: TokenManagerOptions) {
    this.#opts = {
      ...opts,
      refreshMarginSec: opts.refreshMarginSec ?? DEFAULT_REFRESH_MARGIN_SEC,
      defaultLifetimeSec: opts.defaultLifetimeSec ?? 3600,
      now: opts.now ?? opts.http.deps.now,
    };
  }

  /** A valid access token, fetching one only when needed. */
  async getToken(): Promise<string> {
    const cached = this.#current;
    if (cached && this.#opts.now() < cached.refreshAt) return cached.token;
    try {
      return (await this.refresh()).token;
    } catch (err) {
      // Refresh failed inside the margin: the cached token is still good for a while.
      const still = this.#current;
      if (still && this.#opts.now() < still.expiresAt) return still.token;
      throw err;
    }
  }

  /** Forgets the token (after a 401). With an argument, only if that token is still the cached one. */
  invalidate(token?: string): void {
    if (token === undefined || this.#current?.token === token) this.#current = undefined;
  }

  /** Expiry of the cached token (ms since epoch), for diagnostics. */
  get expiresAt(): number | undefined {
    return this.#current?.expiresAt;
  }

  private refresh(): Promise<CachedToken> {
    if (!this.#inflight) {
      this.#inflight = this.fetchToken().finally(() => {
        this.#inflight = undefined;
      });
    }
    return this.#inflight;
  }

  private async fetchToken(): Promise<CachedToken> {
    const startedAt = this.#opts.now();
    const res = await this.#opts.http.send({
      operation: 'T getToken',
      method: 'POST',
      url: `${this.#opts.authUrl}/oauth2/token`,
      auth: { kind: 'basic', username: this.#opts.clientId, password: this.#opts.clientSecret },
      body: () => new URLSearchParams({ grant_type: 'client_credentials' }),
      // Asking for a token twice is harmless.
      idempotent: true,
      limiter: this.#opts.limiter,
      onSend: () => {
        this.tokenRequests++;
        metrics().idvTokenRenewals.inc();
      },
    });
    const body = parseOrThrow(TokenResponseSchema, decodeJson(res, 'T getToken'), 'T token response');
    const cached = this.lifetimeOf(body.access_token, body.expires_in, startedAt);
    this.#current = cached;
    return cached;
  }

  private lifetimeOf(token: string, expiresIn: number | undefined, startedAt: number): CachedToken {
    let expiresAt: number | undefined = expiresIn && expiresIn > 0 ? startedAt + expiresIn * 1000 : undefined;
    const claims = safeDecodeJwt(token);
    if (claims?.exp !== undefined) {
      let jwtExpiry = claims.exp * 1000;
      if (jwtExpiry <= startedAt && claims.iat !== undefined && claims.exp > claims.iat) {
        // Our clock is ahead of the issuer's: trust the token's own lifetime instead.
        jwtExpiry = startedAt + (claims.exp - claims.iat) * 1000;
      }
      expiresAt = expiresAt === undefined ? jwtExpiry : Math.min(expiresAt, jwtExpiry);
    }
    expiresAt ??= startedAt + this.#opts.defaultLifetimeSec * 1000;
    expiresAt = Math.max(expiresAt, startedAt + MIN_LIFETIME_MS);
    return {
      token,
      obtainedAt: startedAt,
      expiresAt,
      refreshAt: startedAt + renewAfterMs(expiresAt - startedAt, this.#opts.refreshMarginSec),
    };
  }
}

function safeDecodeJwt(token: string): { exp?: number; iat?: number } | undefined {
  try {
    const claims = decodeJwt(token);
    return {
      exp: typeof claims.exp === 'number' ? claims.exp : undefined,
      iat: typeof claims.iat === 'number' ? claims.iat : undefined,
    };
  } catch {
    // Not a JWT: rely on expires_in.
    return undefined;
  }
}
