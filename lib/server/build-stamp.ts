import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const STAMP_FILE = '.next/verdict-build-stamp';
export const NEXT_BIN = path.resolve('node_modules/next/dist/bin/next');

/** A fingerprint of the contents of everything the console build depends on. */
export function sourceStamp(): string {
  const h = createHash('sha256');
  const add = (p: string) => h.update(p).update('\0').update(fs.readFileSync(p)).update('\0');
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else add(p);
    }
  };
  for (const d of ['app', 'components', 'lib']) walk(d);
  for (const f of ['package-lock.json', 'next.config.mjs', 'proxy.ts', 'postcss.config.mjs', 'tsconfig.json'])
    if (fs.existsSync(f)) add(f);
  return h.digest('hex');
}

/** Builds the console when there is no build, or when the sources changed since the last one. */
export async function ensureBuild(env: NodeJS.ProcessEnv, log: (s: string) => void): Promise<void> {
  const stamp = sourceStamp();
  if (fs.existsSync('.next/BUILD_ID') && fs.existsSync(STAMP_FILE) && fs.readFileSync(STAMP_FILE, 'utf8') === stamp)
    return;
  log('Building the console (first start, or the sources changed; about a minute)…');
  await new Promise<void>((resolve, reject) => {
    const p = spawn(process.execPath, [NEXT_BIN, 'build'], {
      env: { ...env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`next build failed with code ${code}`))));
  });
  fs.writeFileSync(STAMP_FILE, stamp);
}
