import 'server-only';
import { headers } from 'next/headers';

/**
 * The client's IP. `next start` appends the socket address to X-Forwarded-For, so without a
 * trusted proxy the last entry is the only one that cannot be forged; behind a trusted proxy
 * (TRUST_PROXY=1) the first entry is the original client.
 */
export function clientIpFrom(h: Pick<Headers, 'get'>): string | null {
  const xff = h.get('x-forwarded-for');
  if (xff) {
    const parts = xff
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const trust = ['1', 'true', 'on', 'yes'].includes(String(process.env.TRUST_PROXY ?? '').toLowerCase());
    const ip = trust ? parts[0] : parts[parts.length - 1];
    if (ip) return normalizeIp(ip);
  }
  return h.get('x-real-ip') ? normalizeIp(h.get('x-real-ip')!) : null;
}

export function normalizeIp(ip: string): string {
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

/** The client IP of the current request, or null outside a request. */
export async function currentIp(): Promise<string | null> {
  try {
    return clientIpFrom(await headers());
  } catch {
    return null;
  }
}
