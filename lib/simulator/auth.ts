// Tokens: OAuth access tokens (kind "access"), transaction tokens (kind "transaction", one workflow
// execution and its credentials), SDK tokens (kind "sdk") and the web capture page's tokens (kind
// "web", carried in the account response's web.href). All are HS256 JWTs signed with a
// per-process secret, so a restart invalidates every token, as a real key rotation would.
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { unauthorized } from './errors';

export type TokenKind = 'access' | 'transaction' | 'sdk' | 'web';
export interface TokenClaims {
  kind: TokenKind;
  sub: string;
  iat: number;
  exp: number;
  /** transaction/sdk/web: workflow execution, account and credentials the token is for. */
  wid?: string;
  aid?: string;
  cids?: string[];
}

const TOKEN_NAMES: Record<TokenKind, string> = {
  access: 'access token',
  transaction: 'transaction token (api.token)',
  sdk: 'SDK token (sdk.token)',
  web: 'web capture token (web.href)',
};
const article = (name: string) => (/^[aeiou]|^SDK/i.test(name) ? `an ${name}` : `a ${name}`);

export class TokenService {
  private readonly key = new Uint8Array(randomBytes(32));
  private cached = new Map<number, { token: string; exp: number }>();
  issued = 0;
  constructor(readonly issuer: string) {}

  private async sign(claims: Record<string, unknown>, sub: string, lifetimeSec: number, nowSec: number) {
    this.issued++;
    return new SignJWT({ ...claims, typ: claims.kind })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(this.issuer)
      .setSubject(sub)
      .setIssuedAt(nowSec)
      .setExpirationTime(nowSec + lifetimeSec)
      .setJti(randomUUID())
      .sign(this.key);
  }

  /** An access token; the same one is returned while it has a comfortable time left (like the real service's cache). */
  async accessToken(clientId: string, lifetimeSec: number): Promise<{ token: string; expiresIn: number }> {
    const now = Math.floor(Date.now() / 1000);
    const hit = this.cached.get(lifetimeSec);
    if (hit && hit.exp - now > Math.min(300, lifetimeSec / 2)) return { token: hit.token, expiresIn: hit.exp - now };
    const token = await this.sign({ kind: 'access' }, clientId, lifetimeSec, now);
    this.cached.set(lifetimeSec, { token, exp: now + lifetimeSec });
    return { token, expiresIn: lifetimeSec };
  }

  async scopedToken(
    kind: 'transaction' | 'sdk' | 'web',
    scope: { wid: string; aid: string; cids: string[] },
    expiresAtMs: number,
  ): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return this.sign({ kind, ...scope }, scope.wid, Math.max(1, Math.round((expiresAtMs - Date.now()) / 1000)), now);
  }

  /** Verifies a bearer token and its kind; every failure is a 401 that says why. */
  async verify(authorization: string | undefined, want: TokenKind): Promise<TokenClaims> {
    if (!authorization) throw unauthorized(`Missing Authorization header: a bearer ${TOKEN_NAMES[want]} is required`);
    const m = /^(\w+)\s+(.+)$/.exec(authorization.trim());
    if (!m) throw unauthorized('Malformed Authorization header');
    if (m[1].toLowerCase() === 'basic')
      throw unauthorized('Basic authentication is not accepted for this operation: use a bearer token');
    if (m[1].toLowerCase() !== 'bearer') throw unauthorized(`Unsupported authorization scheme ${m[1]}`);
    let claims: TokenClaims;
    try {
      const { payload } = await jwtVerify(m[2], this.key, { issuer: this.issuer, algorithms: ['HS256'] });
      claims = payload as unknown as TokenClaims;
    } catch (e) {
      if (e instanceof joseErrors.JWTExpired) throw unauthorized('The token has expired');
      throw unauthorized('The token is invalid');
    }
    if (claims.kind !== want)
      throw unauthorized(
        `Wrong token kind: this operation needs ${article(TOKEN_NAMES[want])}, got ${TOKEN_NAMES[claims.kind] ? article(TOKEN_NAMES[claims.kind]) : 'a token of an unknown kind'}`,
      );
    return claims;
  }

  reset() {
    this.cached.clear();
  }
}

/** Parses HTTP Basic credentials; null when absent or malformed. */
export function parseBasic(authorization: string | undefined): { id: string; secret: string } | null {
  if (!authorization) return null;
  const m = /^basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(authorization.trim());
  if (!m) return null;
  const raw = Buffer.from(m[1], 'base64').toString('utf8');
  const i = raw.indexOf(':');
  if (i < 0) return null;
  let id = raw.slice(0, i),
    secret = raw.slice(i + 1);
  try {
    id = decodeURIComponent(id);
    secret = decodeURIComponent(secret);
  } catch {
    /* keep raw values */
  }
  return { id, secret };
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a),
    y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
