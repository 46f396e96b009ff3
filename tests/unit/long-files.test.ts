import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Files of one job stay short; the few that are long for a reason say so. Every source file under
 * lib/, components/ and app/ over 400 lines must be named in the README's table of long files
 * (by its path, or by its name in a row that names a file of the same folder), so a file that
 * grows past the limit is either split or explained, never left to grow unseen.
 */

const ROOT = path.resolve(__dirname, '../..');
const LIMIT = 400;

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return sources(rel);
    return /\.(ts|tsx)$/.test(e.name) ? [rel] : [];
  });
}

/** The rows of the README's table under "Files over 400 lines". */
function longFileRows(readme: string): string[] {
  const start = readme.indexOf('Files over 400 lines');
  expect(start, 'the README has a table of files over 400 lines').toBeGreaterThan(-1);
  const rows: string[] = [];
  for (const line of readme.slice(start).split('\n').slice(1)) {
    if (line.startsWith('|')) rows.push(line);
    else if (rows.length) break;
  }
  return rows;
}

describe('long files', () => {
  it('every source file over 400 lines is named in the README with its reason', () => {
    const rows = longFileRows(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
    const named = (file: string) =>
      rows.some((r) => {
        const [, cell, reason] = r.split('|');
        if (!cell || !reason?.trim()) return false;
        if (cell.includes(`\`${file}\``)) return true;
        // `lib/simulator/catalog.ts`, `openapi.ts`: a name in a row that names its folder.
        return cell.includes(`\`${path.posix.dirname(file)}/`) && cell.includes(`\`${path.posix.basename(file)}\``);
      });
    const long = ['lib', 'components', 'app']
      .flatMap(sources)
      .filter((f) => readFileSync(path.join(ROOT, f), 'utf8').split('\n').length - 1 > LIMIT);
    expect(long.length, 'some files are long').toBeGreaterThan(0);
    expect(long.filter((f) => !named(f))).toEqual([]);
  });
});
