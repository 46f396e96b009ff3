import { describe, expect, it } from 'vitest';
import { parseEnv } from '@/lib/env';
import { parseIpAllowlist } from '@/lib/ip-allowlist';
import { SERVICE_RETRY_SCHEDULE_SEC, syncOptionsFromEnv } from '@/lib/sync/config';

describe('callback source-IP allowlist', () => {
  const list = (v: string) => {
    const r = parseIpAllowlist(v);
    if (!r.ok) throw new Error(r.error);
    return r.list;
  };

  it('is off when empty', () => {
    expect(list('')).toBeNull();
    expect(list(' , ')).toBeNull();
  });

  it('matches single addresses and CIDR ranges, IPv4 and IPv6, and IPv4-mapped IPv6', () => {
    const l = list('203.0.113.7, 198.51.100.0/24 2001:db8::/32');
    expect(l?.allows('203.0.113.7')).toBe(true);
    expect(l?.allows('203.0.113.8')).toBe(false);
    expect(l?.allows('198.51.100.250')).toBe(true);
    expect(l?.allows('::ffff:198.51.100.1')).toBe(true);
    expect(l?.allows('2001:db8:1::5')).toBe(true);
    expect(l?.allows('2001:db9::1')).toBe(false);
    expect(l?.allows(null)).toBe(false);
    expect(l?.allows('not-an-ip')).toBe(false);
  });

  it('refuses what is not an address, at start-up, naming the variable', () => {
    expect(parseIpAllowlist('10.0.0.0/33')).toMatchObject({ ok: false });
    expect(parseIpAllowlist('example.com')).toMatchObject({ ok: false });
    expect(() => parseEnv({ CALLBACK_IP_ALLOWLIST: '10.0.0.1, nope' })).toThrow(/CALLBACK_IP_ALLOWLIST/);
  });
});

describe('sync configuration', () => {
  it("defaults to the vendor's retry schedule (40 ... 940 s, 10 tries)", () => {
    const o = syncOptionsFromEnv(parseEnv({}));
    expect(o.retryScheduleSec).toEqual(SERVICE_RETRY_SCHEDULE_SEC);
    expect(o.retryScheduleSec).toHaveLength(10);
    expect(o.pollMinutes).toBe(5);
    expect(parseEnv({}).JOB_SCHEMA).toBe('pgboss');
  });

  it('takes a shorter schedule and refuses a bad one', () => {
    expect(syncOptionsFromEnv(parseEnv({ SYNC_RETRY_SCHEDULE: '1, 2,3' })).retryScheduleSec).toEqual([1, 2, 3]);
    expect(() => parseEnv({ SYNC_RETRY_SCHEDULE: '1,x' })).toThrow(/SYNC_RETRY_SCHEDULE/);
    expect(() => parseEnv({ JOB_SCHEMA: 'drop table' })).toThrow(/JOB_SCHEMA/);
  });
});
