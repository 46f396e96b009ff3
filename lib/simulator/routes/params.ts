import type { Category, KnownCategory } from '../catalog';
import { bad } from '../errors';

/** Path parameters and request rules shared by the operations. */
export function checkCallbackUrl(u: string, allowInsecure: boolean, hostAllowed: (host: string) => boolean) {
  let url: URL;
  try {
    url = new URL(u);
  } catch {
    throw bad('callbackUrl: must be an absolute URL');
  }
  if (url.protocol !== 'https:' && !(allowInsecure && url.protocol === 'http:'))
    throw bad('callbackUrl: must use HTTPS');
  if (!allowInsecure) {
    if (url.port) throw bad('callbackUrl: must not contain a port');
    if (/^\d{1,3}(\.\d{1,3}){3}$/.test(url.hostname) || url.hostname.startsWith('['))
      throw bad('callbackUrl: the host must be a domain name, not an IP address');
  }
  // Not a rule of the real service: this simulator posts only where its operator allows.
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (!hostAllowed(host)) {
    throw bad(
      `callbackUrl: this simulator sends callbacks only to loopback addresses and the hosts it was started with (SIM_CALLBACK_HOSTS); "${host.slice(0, 80)}" is not one of them`,
    );
  }
}

/** Loopback names and addresses: the machine the simulator runs on. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '::1';
}

const PART_NAMES: Record<KnownCategory, Record<string, string>> = {
  ID: { front: 'FRONT', back: 'BACK' },
  SELFIE: { face: 'FACE' },
  DATA: { prepared_data: 'PREPARED_DATA' },
  FACEMAP: {},
  DOCUMENT: { document: 'DOCUMENT' },
};

/** The API part links of a category's credential (`api.parts`); a category the simulator does not know has none. */
export const partNamesOf = (c: Category): Record<string, string> => PART_NAMES[c as KnownCategory] ?? {};
