import { MAX_URL_LENGTH } from './event-types';
import {
  destinationProblem,
  outboundPolicyFromEnv,
  resolveDestination,
  systemResolver,
  type OutboundPolicy,
  type Resolver,
} from './outbound';

/**
 * Why an endpoint URL is refused, or null: not http(s), too long, credentials in it, or a
 * destination the outbound policy refuses (./outbound.ts: the console itself, the service,
 * internal addresses). A host name's addresses are checked by `resolveDestination` as well.
 */
export function endpointUrlProblem(raw: string, policy: OutboundPolicy): string | null {
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
  return destinationProblem(u, policy);
}

/** How long saving an endpoint waits for its host name to resolve before accepting it unresolved. */
const SAVE_RESOLVE_MS = 2_000;

/**
 * The check when an endpoint is saved: the URL, then the addresses its host resolves to now. A name
 * that does not resolve yet is accepted (the receiver may not exist yet): every send checks again.
 */
export async function checkEndpointUrl(
  raw: string,
  policy: OutboundPolicy = outboundPolicyFromEnv(),
  resolve: Resolver = systemResolver,
): Promise<string | null> {
  const problem = endpointUrlProblem(raw, policy);
  if (problem) return problem;
  const timeout = new Promise<null>((r) => setTimeout(() => r(null), SAVE_RESOLVE_MS).unref());
  const d = await Promise.race([resolveDestination(new URL(raw), policy, resolve), timeout]);
  return d && !d.ok && 'problem' in d ? d.problem : null;
}
