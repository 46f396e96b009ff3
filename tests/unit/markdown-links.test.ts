import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every Markdown file of the repository names files that exist: a relative link resolves from the
 * file's own folder, and a path in backticks that starts at a top-level folder resolves from the
 * repository's root. A README that outlives a move is the map people trust and the first to rot.
 */

const ROOT = path.resolve(__dirname, '../..');
const SKIP = new Set(['node_modules', '.git', '.next', '.data', 'test-results', 'playwright-report']);
const TOP = ['app/', 'components/', 'lib/', 'drizzle/', 'tests/', 'scripts/', 'docs/', '.ci/'];

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (SKIP.has(e.name)) return [];
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return markdownFiles(p);
    return e.name.endsWith('.md') ? [p] : [];
  });
}

/** Links and rooted code paths of one Markdown text, with their line numbers. */
export function referencesOf(text: string): Array<{ line: number; target: string; from: 'file' | 'root' }> {
  const out: Array<{ line: number; target: string; from: 'file' | 'root' }> = [];
  let fenced = false;
  text.split('\n').forEach((l, i) => {
    if (l.trimStart().startsWith('```')) fenced = !fenced;
    if (fenced) return;
    for (const m of l.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1].split('#')[0];
      if (!target || /^[a-z]+:/i.test(target)) continue;
      out.push({ line: i + 1, target, from: 'file' });
    }
    for (const m of l.matchAll(/`([^`\s]+)`/g)) {
      const token = m[1].replace(/[.,:;]$/, '');
      if (!TOP.some((t) => token.startsWith(t))) continue;
      // Patterns and placeholders name no one file.
      if (/[<>*{}…]|\.\.\./.test(token)) continue;
      out.push({ line: i + 1, target: token.split('#')[0].replace(/:\d+$/, ''), from: 'root' });
    }
  });
  return out;
}

describe('Markdown files name what exists', () => {
  const files = markdownFiles(ROOT);

  it('finds the READMEs and the docs', () => {
    expect(files.map((f) => path.relative(ROOT, f))).toEqual(
      expect.arrayContaining(['README.md', 'docs/benchmarks.md', 'lib/cases/README.md']),
    );
  });

  it('every relative link and rooted path resolves', () => {
    const broken: string[] = [];
    for (const file of files) {
      for (const ref of referencesOf(readFileSync(file, 'utf8'))) {
        const base = ref.from === 'file' ? path.dirname(file) : ROOT;
        const target = path.resolve(base, decodeURIComponent(ref.target));
        // A module may be named without its extension (`lib/format` for lib/format.ts).
        if (!['', '.ts', '.tsx'].some((ext) => existsSync(target + ext)))
          broken.push(`${path.relative(ROOT, file)}:${ref.line} ${ref.target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('catches a broken link and a stale path', () => {
    const refs = referencesOf('See [the notes](nowhere/README.md) and `lib/data/gone.ts`.\n');
    expect(refs.map((r) => r.target)).toEqual(['nowhere/README.md', 'lib/data/gone.ts']);
    expect(refs.every((r) => !existsSync(path.resolve(ROOT, r.target)))).toBe(true);
  });
});
