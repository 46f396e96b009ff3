/**
 * Where the service is, and the one rule about how Verdict may reach it. Shared by the start-up
 * validation (lib/env/index.ts) and the client's configuration (config.ts), so both refuse the same
 * addresses with the same words. No server-only marker: pure functions of the environment.
 */

/** The four concerns of the service, each with its own host at the real service (service-facts, "Hosts"). */
export const IDV_URL_VARS = {
  authUrl: 'IDV_AUTH_URL',
  accountUrl: 'IDV_ACCOUNT_URL',
  apiUrl: 'IDV_API_URL',
  retrievalUrl: 'IDV_RETRIEVAL_URL',
} as const;
export type IdvConcern = keyof typeof IDV_URL_VARS;

/**
 * Spec, Authentication 3: "Token endpoints exist for three regions: US, EU and SG". The region
 * names in host names are from service-facts ("Hosts": amer-1, emea-1, apac-1); neither source
 * names the domain, so it is a setting of its own (IDV_DOMAIN).
 */
export const IDV_REGIONS = { US: 'amer-1', EU: 'emea-1', SG: 'apac-1' } as const;
export type IdvRegion = keyof typeof IDV_REGIONS;

/** IDV_DOMAIN: the service's domain, as in https://auth.<region>.<domain>. */
export const IDV_DOMAIN_RE = /^(?!-)[a-z0-9-]+(\.[a-z0-9-]+)+$/;
export const IDV_DOMAIN_RULE = 'must be a domain name such as example.com';

/** service-facts, "Hosts": `https://<concern>.<region>.<domain>`; the token service is `auth`. */
const HOST_PREFIX: Record<IdvConcern, string> = {
  authUrl: 'auth',
  accountUrl: 'account',
  apiUrl: 'api',
  retrievalUrl: 'retrieval',
};

export function regionUrl(concern: IdvConcern, region: IdvRegion, domain: string): string {
  return `https://${HOST_PREFIX[concern]}.${IDV_REGIONS[region]}.${domain}`;
}

/** Loopback names and addresses: a simulator on this machine (the built-in one listens on 127.0.0.1). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(h) || h === '::1';
}

/**
 * Spec, Authentication 8: "TLS is required for all traffic". A plain-http address is accepted only
 * for a loopback host (the built-in or a local simulator) or when the operator says so on purpose
 * (IDV_ALLOW_INSECURE=1, for test setups): a mistyped production address would otherwise send the
 * client secret and personal data in clear. Returns the problem, or null.
 */
export function insecureAddressProblem(url: string, allowInsecure: boolean): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'must be an http(s) URL';
  }
  if (u.protocol === 'https:') return null;
  if (u.protocol !== 'http:') return 'must be an http(s) URL';
  if (allowInsecure || isLoopbackHost(u.hostname)) return null;
  return `uses http:// for ${u.hostname}: the service requires TLS (https://); plain http is allowed only for loopback hosts, or for a test setup with IDV_ALLOW_INSECURE=1`;
}

export interface IdvAddressSettings {
  IDV_BASE_URL?: string;
  IDV_AUTH_URL?: string;
  IDV_ACCOUNT_URL?: string;
  IDV_API_URL?: string;
  IDV_RETRIEVAL_URL?: string;
  IDV_REGION?: IdvRegion;
  IDV_DOMAIN?: string;
  IDV_ALLOW_INSECURE?: boolean;
}

/**
 * The address of each concern: its own variable, else IDV_BASE_URL, else the region's host
 * (IDV_REGION with IDV_DOMAIN). Explicit URLs always win over the region. Every problem names the
 * variable to fix; `urls` holds the concerns that resolved.
 */
export function resolveIdvAddresses(s: IdvAddressSettings): {
  urls: Partial<Record<IdvConcern, string>>;
  problems: string[];
} {
  const problems: string[] = [];
  const urls: Partial<Record<IdvConcern, string>> = {};
  if (s.IDV_REGION && !s.IDV_DOMAIN)
    problems.push(
      'IDV_DOMAIN: required with IDV_REGION (the domain of the service, as in https://auth.<region>.<domain>)',
    );
  if (s.IDV_DOMAIN && !s.IDV_REGION) problems.push('IDV_REGION: required with IDV_DOMAIN (US, EU or SG)');
  for (const [concern, variable] of Object.entries(IDV_URL_VARS) as Array<[IdvConcern, string]>) {
    const own = s[variable as keyof IdvAddressSettings] as string | undefined;
    const [value, from] = own
      ? [own, variable]
      : s.IDV_BASE_URL
        ? [s.IDV_BASE_URL, 'IDV_BASE_URL']
        : s.IDV_REGION && s.IDV_DOMAIN
          ? [regionUrl(concern, s.IDV_REGION, s.IDV_DOMAIN), 'IDV_REGION']
          : [undefined, variable];
    if (!value) {
      problems.push(`${variable}: not set (set it, IDV_BASE_URL for all concerns, or IDV_REGION and IDV_DOMAIN)`);
      continue;
    }
    const problem = insecureAddressProblem(value, s.IDV_ALLOW_INSECURE ?? false);
    if (problem) {
      if (!problems.some((p) => p.startsWith(`${from}:`))) problems.push(`${from}: ${problem}`);
      continue;
    }
    urls[concern] = value.replace(/\/+$/, '');
  }
  return { urls, problems };
}
