import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '@/lib/db/embedded';
import { lockDownDataDir, openDatabase, type DatabaseHandle } from '@/lib/server/runtime';

/**
 * The embedded database is reachable over loopback by every local user, so it must check a
 * password (pglite-socket alone accepts any user and password as superuser), and the folder
 * that holds it, its address and its password must be readable by its owner only.
 */
describe('the embedded database is closed to other local users', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-access-'));
  let handle: DatabaseHandle;
  let embedded: EmbeddedDatabase;

  beforeAll(async () => {
    // A folder as an older version left it: world-readable files in a 0755 folder.
    fs.mkdirSync(path.join(dir, 'old'), { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'old', 'leftover'), 'x', { mode: 0o666 });
    fs.chmodSync(path.join(dir, 'old', 'leftover'), 0o666);
    fs.chmodSync(dir, 0o755);
    const umask = process.umask(0o022);
    // As `npm start` without DATABASE_URL (the test setup points DATABASE_URL at its own database).
    const configured = process.env.DATABASE_URL;
    delete process.env.DATABASE_URL;
    try {
      lockDownDataDir(dir);
      handle = await openDatabase({ dataDir: dir, own: true });
      embedded = handle.embedded!;
    } finally {
      process.umask(umask);
      process.env.DATABASE_URL = configured;
    }
  });
  afterAll(async () => {
    await handle?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a wrong password and a missing one, and serves the right one', async () => {
    const right = new URL(embedded.url);
    const wrong = new URL(embedded.url);
    wrong.password = 'postgres';
    const c = new Client({ connectionString: wrong.toString() });
    await expect(c.connect()).rejects.toThrow(/password authentication failed/);
    const anyUser = new URL(embedded.url);
    anyUser.username = 'intruder';
    anyUser.password = '';
    await expect(new Client({ connectionString: anyUser.toString(), password: '' }).connect()).rejects.toThrow();
    const ok = new Client({ connectionString: right.toString() });
    await ok.connect();
    expect((await ok.query('select 1 + 1 as n')).rows[0].n).toBe(2);
    await ok.end();
  });

  it('keeps every file and folder of the data directory owner-only, the address file included', () => {
    const loose: string[] = [];
    const walk = (p: string) => {
      const st = fs.lstatSync(p);
      if (st.mode & 0o077) loose.push(`${path.relative(dir, p) || '.'} ${(st.mode & 0o777).toString(8)}`);
      if (st.isDirectory()) for (const n of fs.readdirSync(p)) walk(path.join(p, n));
    };
    walk(dir);
    expect(loose).toEqual([]);
    expect(fs.readFileSync(path.join(dir, 'pglite.url'), 'utf8')).toContain(new URL(embedded.url).password);
  });

  it('keeps its password across a restart on the same folder, so running workers reconnect', async () => {
    const again = await startEmbeddedDatabase({ dataDir: path.join(dir, 'second') });
    const first = again.url;
    await again.close();
    const third = await startEmbeddedDatabase({ dataDir: path.join(dir, 'second') });
    expect(new URL(third.url).password).toBe(new URL(first).password);
    await third.close();
  });
});
