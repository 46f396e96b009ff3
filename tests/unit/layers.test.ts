import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layers of .dependency-cruiser.cjs (which `npm run lint` enforces) are the house's one list:
 * every folder of lib/ and components/ (and app/, scripts/) is in it, and the README's layer line
 * is that list, in its order. A new folder that nobody placed, or a README that tells another
 * order than the one enforced, fails here.
 */

const ROOT = path.resolve(__dirname, '../..');
const config = createRequire(import.meta.url)(path.join(ROOT, '.dependency-cruiser.cjs')) as {
  forbidden: Array<{ name: string }>;
};
// One rule per layer but the top one, lowest first: `layer:<folder>`.
const ruled = config.forbidden.filter((r) => r.name.startsWith('layer:')).map((r) => r.name.slice('layer:'.length));
const LAYERS = [...ruled, 'scripts'];

function foldersOf(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .filter((e) => (e.isDirectory() ? true : /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')))
    .map((e) => `${dir}/${e.name.replace(/\.tsx?$/, '')}`);
}

describe('the layers', () => {
  it('place every folder of lib/ and components/, and app/ and scripts/', () => {
    const folders = [...foldersOf('lib'), ...foldersOf('components'), 'app', 'scripts'];
    expect(folders.filter((f) => !LAYERS.includes(f))).toEqual([]);
    expect(LAYERS.filter((l) => !folders.includes(l))).toEqual([]);
  });

  it('are told in the README in the enforced order', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const line = readme.split('\n').find((l) => l.startsWith('Layers, lowest first:'));
    expect(line, 'README names the layers on one line starting "Layers, lowest first:"').toBeDefined();
    const told = [...line!.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    expect(told).toEqual(LAYERS);
  });
});
