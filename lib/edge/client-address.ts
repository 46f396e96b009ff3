import type { IncomingMessage } from 'node:http';

/**
 * The one source of the client's address. The console is always served through
 * `lib/edge/console-server.ts`, which calls `applyClientAddress` on every request before Next
 * sees it; route handlers, actions and next-auth then read the single `X-Forwarded-For` entry
 * it wrote (`lib/request.ts`). Next keeps a client-supplied X-Forwarded-For as it is, so
 * without this step the address in audit entries, sessions, the sign-in throttle and the
 * callback allowlist would be whatever the caller typed.
 */

/** Headers a client could use to claim an address; all of them are replaced or removed. */
const CLAIMS = ['x-forwarded-for', 'x-real-ip', 'forwarded', 'x-client-ip', 'true-client-ip', 'cf-connecting-ip'];

export function normalizeIp(ip: string): string {
  const trimmed = ip.trim();
  return trimmed.startsWith('::ffff:') ? trimmed.slice(7) : trimmed;
}

/**
 * The client's address from the socket, or, behind `hops` trusted proxies, the `hops`-th entry
 * of X-Forwarded-For counted from the right (each proxy appends the address it saw; entries
 * further left were written by the client and prove nothing). With fewer entries than hops the
 * leftmost is the best there is.
 */
export function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | undefined,
  hops: number,
): string | null {
  const socket = socketAddress ? normalizeIp(socketAddress) : null;
  if (hops <= 0 || !forwardedFor) return socket;
  const entries = forwardedFor
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!entries.length) return socket;
  return normalizeIp(entries[Math.max(0, entries.length - hops)]);
}

export function trustedProxyHops(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.TRUSTED_PROXY_HOPS ?? 0);
  return Number.isInteger(n) && n > 0 ? n : 0;
}

/** Replaces every address claim of the request with the one address derived above. */
export function applyClientAddress(req: IncomingMessage, hops = trustedProxyHops()): string | null {
  const raw = req.headers['x-forwarded-for'];
  const ip = clientAddress(req.socket.remoteAddress, Array.isArray(raw) ? raw.join(',') : raw, hops);
  for (const name of CLAIMS) delete req.headers[name];
  if (ip) req.headers['x-forwarded-for'] = ip;
  // Next builds its request from rawHeaders too; keep both views identical.
  const rebuilt: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (!CLAIMS.includes(req.rawHeaders[i].toLowerCase())) rebuilt.push(req.rawHeaders[i], req.rawHeaders[i + 1]);
  }
  if (ip) rebuilt.push('X-Forwarded-For', ip);
  req.rawHeaders.splice(0, req.rawHeaders.length, ...rebuilt);
  return ip;
}

/**
 * The client's IP as the console's edge server wrote it (`applyClientAddress` above): one
 * X-Forwarded-For entry, taken from the socket or the trusted proxy hop, never from what the
 * client sent.
 */
export function clientIpFrom(h: Pick<Headers, 'get'>): string | null {
  const xff = h.get('x-forwarded-for');
  const last = xff
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .pop();
  return last ? normalizeIp(last) : null;
}
