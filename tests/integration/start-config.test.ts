import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `npm start` validates the configuration before it opens anything: a plain-http address of the
 * service outside loopback stops it with a message naming the variable (spec, Authentication 8:
 * TLS is required for all traffic).
 */
function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-start-'));
  const child = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'scripts/start.ts'], {
    env: { NODE_ENV: 'production', PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      resolve({ code, stderr });
    }),
  );
}

describe('npm start and the service address', () => {
  it('stops on IDV_BASE_URL=http://idv.example.com with a message naming the variable', async () => {
    const r = await start({ IDV_BASE_URL: 'http://idv.example.com', IDV_CLIENT_ID: 'id', IDV_CLIENT_SECRET: 'secret' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Invalid configuration');
    expect(r.stderr).toMatch(/IDV_BASE_URL: uses http:\/\/ for idv\.example\.com.*requires TLS/);
  });
});
