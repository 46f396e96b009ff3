import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { applyClientAddress, clientAddress } from '@/lib/edge/client-address';

describe('the client address (one source)', () => {
  it('is the socket address when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress('::ffff:10.0.0.7', '6.6.6.6, 7.7.7.7', 0)).toBe('10.0.0.7');
    expect(clientAddress('127.0.0.1', undefined, 0)).toBe('127.0.0.1');
  });

  it('behind N trusted proxies is the Nth entry from the right', () => {
    // The client forged "6.6.6.6"; the one proxy appended the address it saw (203.0.113.5).
    expect(clientAddress('10.0.0.2', '6.6.6.6, 203.0.113.5', 1)).toBe('203.0.113.5');
    expect(clientAddress('10.0.0.2', '6.6.6.6, 203.0.113.5, 10.0.0.9', 2)).toBe('203.0.113.5');
    // Fewer entries than hops: the leftmost is the best there is.
    expect(clientAddress('10.0.0.2', '203.0.113.5', 3)).toBe('203.0.113.5');
    expect(clientAddress('10.0.0.2', '', 1)).toBe('10.0.0.2');
  });

  it('replaces every address claim of a real request before anything reads it', async () => {
    let seen: http.IncomingHttpHeaders = {};
    let raw: string[] = [];
    const server = http.createServer((req, res) => {
      applyClientAddress(req, 0);
      seen = req.headers;
      raw = req.rawHeaders;
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const { port } = server.address() as AddressInfo;
    await fetch(`http://127.0.0.1:${port}/`, {
      headers: {
        'X-Forwarded-For': '6.6.6.6',
        'X-Real-IP': '7.7.7.7',
        Forwarded: 'for=8.8.8.8',
        'True-Client-IP': '9.9.9.9',
      },
    });
    await new Promise<void>((r) => server.close(() => r()));
    expect(seen['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen['x-real-ip']).toBeUndefined();
    expect(seen.forwarded).toBeUndefined();
    expect(seen['true-client-ip']).toBeUndefined();
    expect(raw.join(' ')).not.toMatch(/6\.6\.6\.6|7\.7\.7\.7|8\.8\.8\.8|9\.9\.9\.9/);
  });
});
