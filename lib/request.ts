import 'server-only';
import { headers } from 'next/headers';
import { clientIpFrom } from '@/lib/edge/client-address';

export { clientIpFrom };

/** The client IP of the current request, or null outside a request. */
export async function currentIp(): Promise<string | null> {
  try {
    return clientIpFrom(await headers());
  } catch {
    return null;
  }
}
