import 'server-only';
import { headers } from 'next/headers';
import { normalizeIp } from '@/lib/edge/client-address';

export { normalizeIp };

/**
 * The client's IP as the console's edge server wrote it (`lib/edge/client-address.ts`): one
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

/** The client IP of the current request, or null outside a request. */
export async function currentIp(): Promise<string | null> {
  try {
    return clientIpFrom(await headers());
  } catch {
    return null;
  }
}
