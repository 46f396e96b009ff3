import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { parseHostAllowlist, type IpAllowlist } from '@/lib/ip-allowlist';

/**
 * Where Verdict may send a webhook: the one policy, asked when an endpoint is saved and again at
 * every send. An admin's URL is a request Verdict makes from inside its own network, so without it
 * a webhook reaches the cloud's metadata service (169.254.169.254), the database's neighbours or
 * the console's own routes, and the delivery log shows their answers (issue 19, item 3).
 *
 * - Refused: loopback, RFC 1918, CGNAT, link-local, unique-local, multicast, broadcast, unspecified
 *   and reserved addresses, and the IPv6 forms that carry such an IPv4 address (mapped, NAT64,
 *   6to4; the deprecated IPv4-compatible ::/96 whatever it carries). ipaddr.js classifies them.
 * - Allowed anyway: what `WEBHOOK_ALLOWED_HOSTS` lists (host names, `*.suffix`, IPs, CIDR ranges),
 *   and loopback in demo mode (the built-in simulator: receivers run on this machine).
 * - Never: Verdict itself, and the verification service's own addresses (its token URL, …).
 * - At send time the host is resolved once, every address it resolves to is checked, and the
 *   connection goes to the checked address (`pinnedLookup`), so a name that resolves to a public
 *   address when checked and to a private one when connected (DNS rebinding) cannot slip through.
 */

export interface OutboundPolicy {
  /** Demo mode: addresses on this machine are allowed (the receivers run beside the simulator). */
  loopback: boolean;
  /** Host names whose addresses are not checked: exact, or `.suffix` for `*.suffix`. */
  hosts: string[];
  /** IPs and ranges allowed whatever their kind. */
  ranges: IpAllowlist | null;
  /** The console's public origin; its host names and the port it listens on (PORT). */
  self: { origins: string[]; hosts: string[]; port: number };
  /** The verification service's addresses (host and port of each configured URL). */
  service: Array<{ host: string; port: number }>;
}

/** Resolves a host name to every address it has (injected in tests to play DNS). */
export type Resolver = (host: string) => Promise<Array<{ address: string; family: number }>>;

export const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

const SERVICE_URL_VARS = ['IDV_BASE_URL', 'IDV_AUTH_URL', 'IDV_ACCOUNT_URL', 'IDV_API_URL', 'IDV_RETRIEVAL_URL'];
const truthy = (v: string | undefined) => ['1', 'true', 'on', 'yes'].includes((v ?? '').toLowerCase());
const effectivePort = (u: URL) => Number(u.port || (u.protocol === 'https:' ? 443 : 80));
/** The URL parser keeps IPv6 literals in brackets; addresses are compared without them. */
const bare = (host: string) => host.toLowerCase().replace(/^\[(.*)\]$/, '$1');

/** The policy of this process, from its configuration (lib/env/index.ts documents each variable). */
export function outboundPolicyFromEnv(source: Record<string, string | undefined> = process.env): OutboundPolicy {
  const allowed = parseHostAllowlist(source.WEBHOOK_ALLOWED_HOSTS ?? '');
  const self: OutboundPolicy['self'] = { origins: [], hosts: [], port: Number(source.PORT || 3000) };
  if (source.HOST) self.hosts.push(bare(source.HOST));
  const service: OutboundPolicy['service'] = [];
  const urlOf = (raw: string | undefined) => {
    try {
      return raw ? new URL(raw) : null;
    } catch {
      return null; // validated at start-up (lib/env/index.ts)
    }
  };
  const consoleUrl = urlOf(source.NEXTAUTH_URL);
  if (consoleUrl) {
    self.origins.push(consoleUrl.origin);
    self.hosts.push(bare(consoleUrl.hostname));
  }
  for (const name of SERVICE_URL_VARS) {
    const u = urlOf(source[name]);
    if (u) service.push({ host: bare(u.hostname), port: effectivePort(u) });
  }
  return {
    loopback: truthy(source.VERDICT_DEMO),
    hosts: allowed.ok ? allowed.hosts : [],
    ranges: allowed.ok ? allowed.ranges : null,
    self,
    service,
  };
}

const RULES = {
  loopback: 'a loopback address (127.0.0.0/8, ::1: this machine)',
  private: 'a private address (RFC 1918: 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)',
  carrierGradeNat: 'a carrier-grade NAT address (100.64.0.0/10)',
  linkLocal: 'a link-local address (169.254.0.0/16 or fe80::/10, where cloud metadata services answer)',
  uniqueLocal: 'a unique-local IPv6 address (fc00::/7)',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  unspecified: 'the unspecified address (0.0.0.0 or ::)',
  ipv4Compatible: 'an IPv4-compatible IPv6 address (::/96, deprecated by RFC 4291)',
  special: 'a reserved or special-purpose address',
} as const;
export type AddressRule = keyof typeof RULES;

const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

/** The IPv4 address an IPv6 address carries (mapped, RFC 6145, NAT64, 6to4), if it is such a form. */
function embeddedIPv4(a: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = a.range();
  const b = a.toByteArray();
  if (range === 'ipv4Mapped' || range === 'rfc6145') return new ipaddr.IPv4(b.slice(12, 16));
  if (a.match(NAT64_WELL_KNOWN)) return new ipaddr.IPv4(b.slice(12, 16));
  if (range === '6to4') return new ipaddr.IPv4(b.slice(2, 6));
  return null;
}

const V4_RULE: Record<string, AddressRule | null> = {
  unicast: null,
  loopback: 'loopback',
  private: 'private',
  carrierGradeNat: 'carrierGradeNat',
  linkLocal: 'linkLocal',
  multicast: 'multicast',
  broadcast: 'broadcast',
  unspecified: 'unspecified',
};
const V6_RULE: Record<string, AddressRule | null> = {
  unicast: null,
  loopback: 'loopback',
  linkLocal: 'linkLocal',
  deprecatedSiteLocal: 'uniqueLocal',
  uniqueLocal: 'uniqueLocal',
  multicast: 'multicast',
  unspecified: 'unspecified',
};

/** What kind of refused address `ip` is, or null for an ordinary public address. */
export function classifyAddress(ip: string): AddressRule | null {
  let a: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // ipaddr.js reads `::a.b.c.d` as IPv4-mapped; the WHATWG parser writes it as the system does (`::808:808`).
    const plain = bare(ip);
    a = ipaddr.parse(isIP(plain) === 6 && plain.includes('.') ? bare(new URL(`http://[${plain}]/`).hostname) : plain);
  } catch {
    return 'special';
  }
  if (a.kind() === 'ipv4') {
    const r = (a as ipaddr.IPv4).range();
    return r in V4_RULE ? V4_RULE[r] : 'special';
  }
  const v6 = a as ipaddr.IPv6;
  const carried = embeddedIPv4(v6);
  if (carried) return classifyAddress(carried.toString());
  const r = v6.range();
  if (r === 'unicast' && v6.match(IPV4_COMPATIBLE)) return 'ipv4Compatible';
  return r in V6_RULE ? V6_RULE[r] : 'special';
}

const ALLOW_HINT = 'List it in WEBHOOK_ALLOWED_HOSTS if this receiver is meant to be internal.';

/** Why `ip` may not be reached under `policy`, as a sentence naming the rule; null when it may. */
export function addressProblem(ip: string, policy: OutboundPolicy): string | null {
  if (policy.ranges?.allows(bare(ip))) return null;
  const rule = classifyAddress(ip);
  if (!rule || (rule === 'loopback' && policy.loopback)) return null;
  return `Webhooks may not go to ${RULES[rule]}. ${ALLOW_HINT}`;
}

const LOCAL_NAMES = /^(localhost|.+\.localhost)$/i;
/** This machine: a local name, a loopback address, or the unspecified one (connecting to 0.0.0.0 reaches it too). */
const isLocal = (host: string) =>
  LOCAL_NAMES.test(host) || (isIP(bare(host)) > 0 && ['loopback', 'unspecified'].includes(classifyAddress(host) ?? ''));
const hostAllowed = (host: string, policy: OutboundPolicy) =>
  policy.hosts.some((h) => (h.startsWith('.') ? host.endsWith(h) : host === h));

/** The never-allowed destinations: the console itself and the service, by host (or address) and port. */
function ownDestinationProblem(host: string, port: number, policy: OutboundPolicy, address?: string): string | null {
  const local = isLocal(host) || (address !== undefined && isLocal(address));
  if ((local || policy.self.hosts.includes(host)) && policy.self.port === port)
    return 'This URL points at Verdict itself (its own port).';
  for (const s of policy.service) {
    const same = s.host === host || (address !== undefined && s.host === bare(address)) || (local && isLocal(s.host));
    if (same && s.port === port)
      return 'This URL points at the verification service (one of its configured addresses); webhooks may not go there.';
  }
  return null;
}

/**
 * What can be told from the URL alone: the console and the service, literal addresses and local
 * names. A host name is resolved and checked by `resolveDestination`.
 */
export function destinationProblem(u: URL, policy: OutboundPolicy): string | null {
  if (policy.self.origins.includes(u.origin)) return 'This URL points at Verdict itself.';
  const host = bare(u.hostname);
  const own = ownDestinationProblem(host, effectivePort(u), policy);
  if (own) return own;
  if (hostAllowed(host, policy)) return null;
  if (isIP(host)) return addressProblem(host, policy);
  if (LOCAL_NAMES.test(host)) return addressProblem('127.0.0.1', policy);
  return null;
}

export type Destination = { ok: true; address: string; family: 4 | 6 } | { ok: false; problem: string };

/**
 * The address a request to `u` connects to: resolved once, every address checked (one refused
 * address refuses the name: which one the system would pick is not ours to know), then pinned.
 * A name that does not resolve is a network failure, not a policy refusal (`unresolved`).
 */
export async function resolveDestination(
  u: URL,
  policy: OutboundPolicy,
  resolve: Resolver = systemResolver,
): Promise<Destination | { ok: false; unresolved: true }> {
  const staticProblem = destinationProblem(u, policy);
  if (staticProblem) return { ok: false, problem: staticProblem };
  const host = bare(u.hostname);
  const literal = isIP(host);
  if (literal) return { ok: true, address: host, family: literal as 4 | 6 };
  let answers: Array<{ address: string; family: number }>;
  try {
    answers = await resolve(host);
  } catch {
    return { ok: false, unresolved: true };
  }
  if (!answers.length) return { ok: false, unresolved: true };
  const allowedByName = hostAllowed(host, policy);
  for (const a of answers) {
    const own = ownDestinationProblem(host, effectivePort(u), policy, a.address);
    if (own) return { ok: false, problem: own };
    const problem = allowedByName ? null : addressProblem(a.address, policy);
    if (problem) return { ok: false, problem: `${host} resolves to an address that is refused. ${problem}` };
  }
  const first = answers[0];
  return { ok: true, address: bare(first.address), family: (isIP(bare(first.address)) || 4) as 4 | 6 };
}

type LookupCallback = (
  err: Error | null,
  address: string | Array<{ address: string; family: number }>,
  family?: number,
) => void;

/**
 * A `lookup` for the connection (net.connect / tls.connect through undici's connector) that
 * answers the checked address whatever name it is asked for: the request's Host header and TLS
 * name stay the URL's, the socket goes where the check said.
 */
export function pinnedLookup(address: string, family: 4 | 6) {
  return (_host: string, options: { all?: boolean } | number | LookupCallback, cb?: LookupCallback) => {
    const callback = (typeof options === 'function' ? options : cb)!;
    const all = typeof options === 'object' && options?.all;
    if (all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/** One line for the webhook form: what this deployment lets an endpoint point at. */
export function describePolicy(policy: OutboundPolicy): string {
  const allowed = [...policy.hosts.map((h) => (h.startsWith('.') ? `*${h}` : h)), ...(policy.ranges?.entries ?? [])];
  const base = policy.loopback
    ? 'Demo mode: receivers on this machine (localhost, 127.0.0.1) are allowed. A deployment refuses them, and private, link-local and other internal addresses, unless WEBHOOK_ALLOWED_HOSTS lists them.'
    : 'Loopback, private (10/8, 172.16/12, 192.168/16), CGNAT, link-local and unique-local addresses are refused unless WEBHOOK_ALLOWED_HOSTS lists them; host names are checked again at every send.';
  return allowed.length ? `${base} Allowed here: ${allowed.join(', ')}.` : base;
}
