import { BlockList, isIP } from 'node:net';

/**
 * A list of source IPs and CIDR ranges (IPv4 and IPv6), e.g. `203.0.113.7, 198.51.100.0/24, 2001:db8::/32`.
 * The service publishes its callback IPs per region and changes them over time (service-facts),
 * so the list is configuration, not code. Pure: used by lib/env/index.ts to refuse a bad value at start-up.
 */
export interface IpAllowlist {
  /** The entries as written (for messages). */
  entries: string[];
  allows(ip: string | null | undefined): boolean;
}

export function parseIpAllowlist(value: string): { ok: true; list: IpAllowlist | null } | { ok: false; error: string } {
  const entries = value
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (!entries.length) return { ok: true, list: null };
  const block = new BlockList();
  for (const entry of entries) {
    const [addr, bits, extra] = entry.split('/');
    const family = isIP(addr);
    if (!family || extra !== undefined) return { ok: false, error: `"${entry}" is not an IP address or CIDR range` };
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) {
      block.addAddress(addr, type);
      continue;
    }
    const prefix = Number(bits);
    if (!/^\d+$/.test(bits) || prefix > (family === 4 ? 32 : 128))
      return { ok: false, error: `"${entry}" has an invalid prefix length` };
    block.addSubnet(addr, prefix, type);
  }
  return {
    ok: true,
    list: {
      entries,
      allows(ip) {
        if (!ip) return false;
        const clean = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
        const family = isIP(clean);
        if (!family) return false;
        return block.check(clean, family === 4 ? 'ipv4' : 'ipv6');
      },
    },
  };
}

/**
 * Host names (`hooks.internal`, `*.corp.example`, kept as `.corp.example`), IPs and CIDR ranges,
 * separated by commas or spaces: WEBHOOK_ALLOWED_HOSTS (lib/webhooks/outbound.ts). Pure, like the above.
 */
export function parseHostAllowlist(
  value: string,
): { ok: true; hosts: string[]; ranges: IpAllowlist | null } | { ok: false; error: string } {
  const hosts: string[] = [];
  const addresses: string[] = [];
  for (const entry of value
    .split(/[\s,]+/)
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)) {
    if (isIP(entry.split('/')[0])) {
      addresses.push(entry);
      continue;
    }
    const name = entry.startsWith('*.') ? entry.slice(1) : entry;
    if (!/^\.?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(name))
      return { ok: false, error: `"${entry}" is not a host name, an IP address or a CIDR range` };
    hosts.push(name);
  }
  const ranges = parseIpAllowlist(addresses.join(','));
  if (!ranges.ok) return ranges;
  return { ok: true, hosts, ranges: ranges.list };
}
