import { MAX_URL_LENGTH } from './event-types';

/** Where the console itself answers: its public origin and its port on this machine's own names. */
export interface ConsoleAddress {
  origins: string[];
  ports: number[];
  hosts: string[];
}

const LOOPBACK =
  /^(localhost|.+\.localhost|127(\.\d{1,3}){3}|\[::1\]|\[::\]|0\.0\.0\.0|\[::ffff:127(\.\d{1,3}){3}\])$/i;

const effectivePort = (u: URL) => Number(u.port || (u.protocol === 'https:' ? 443 : 80));

/**
 * Why an endpoint URL is refused, or null. Not http(s), too long, or the console itself (its
 * public origin, or its port on a loopback name or its own host): a webhook to the console would
 * post signed requests at its own routes. Browser-safe; the server passes `consoleAddress()`.
 */
export function endpointUrlProblem(raw: string, self: ConsoleAddress): string | null {
  if (raw.length > MAX_URL_LENGTH) return `The URL is longer than ${MAX_URL_LENGTH.toLocaleString('en')} characters.`;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'Enter a full URL, such as https://example.com/webhooks.';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'The URL must start with http:// or https://.';
  if (!u.hostname) return 'The URL needs a host.';
  if (u.username || u.password) return 'Put no user name or password in the URL; the signature authenticates Verdict.';
  if (self.origins.includes(u.origin)) return 'This URL points at Verdict itself.';
  const host = u.hostname.toLowerCase();
  const local = LOOPBACK.test(host) || self.hosts.includes(host);
  if (local && self.ports.includes(effectivePort(u))) return 'This URL points at Verdict itself (its own port).';
  return null;
}

/** The console's own addresses from its configuration (PORT, HOST, NEXTAUTH_URL). */
export function consoleAddress(source: Record<string, string | undefined> = process.env): ConsoleAddress {
  const origins: string[] = [];
  const ports = [Number(source.PORT || 3000)];
  const hosts: string[] = [];
  if (source.HOST) hosts.push(source.HOST.toLowerCase());
  if (source.NEXTAUTH_URL) {
    try {
      const u = new URL(source.NEXTAUTH_URL);
      origins.push(u.origin);
      hosts.push(u.hostname.toLowerCase());
      ports.push(effectivePort(u));
    } catch {
      /* validated at start-up (lib/env.ts) */
    }
  }
  return { origins, ports, hosts };
}
