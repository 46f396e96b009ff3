/**
 * `npm run js:budget`: the gzipped JavaScript a browser downloads for the executions list and
 * detail pages, read from the production build in .next (the framework's shared chunks, the root
 * and console layouts and the page itself). The list's budget is 200 KB.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const ROUTES = {
  list: '/(console)/executions/(list)/page',
  detail: '/(console)/executions/[id]/page',
};

function manifestOf(dir: string, route: string): { entryJSFiles: Record<string, string[]> } | null {
  const file = path.join(dir, 'server/app', `${route}_client-reference-manifest.js`);
  if (!fs.existsSync(file)) return null;
  const text = fs.readFileSync(file, 'utf8');
  const start = text.indexOf('= {', text.indexOf('__RSC_MANIFEST['));
  return JSON.parse(
    text
      .slice(start + 2)
      .trim()
      .replace(/;\s*$/, ''),
  );
}

function routeFiles(dir: string, route: string): string[] | null {
  const m = manifestOf(dir, route);
  if (!m) return null;
  const build = JSON.parse(fs.readFileSync(path.join(dir, 'build-manifest.json'), 'utf8')) as {
    rootMainFiles: string[];
  };
  const page = route.replace(/^\//, '');
  const files = new Set<string>(build.rootMainFiles);
  for (const [entry, chunks] of Object.entries(m.entryJSFiles)) {
    const name = entry.replace(/^\[project\]\/(?:.*?\/)?app\//, '');
    // The page and each layout above it (app/layout, (console)/layout, ...).
    const isLayout = name.endsWith('/layout') || name === 'layout';
    const isAbove = isLayout && (name === 'layout' || page.startsWith(name.slice(0, -'layout'.length)));
    if (name === page || isAbove) for (const c of chunks) files.add(c);
  }
  // A change in how the bundler names entries must not turn this into a count of the framework alone.
  if (!Object.keys(m.entryJSFiles).some((e) => e.replace(/^\[project\]\/(?:.*?\/)?app\//, '') === page)) {
    throw new Error(
      `js:budget: no entry for ${page} in the client manifest (entries: ${Object.keys(m.entryJSFiles).join(', ')})`,
    );
  }
  return [...files];
}

/** The list route's budget in KB gzipped; the browser tests' run fails over it (scripts/e2e.ts). */
export const LIST_BUDGET_KB = 200;

const gz = (dir: string, files: string[]) =>
  files.reduce((sum, f) => sum + gzipSync(fs.readFileSync(path.join(dir, f)), { level: 9 }).length, 0) / 1024;

export function measureJsBudget(dir = '.next'): { routeKb: number; detailKb: number; files: number } | null {
  const list = routeFiles(dir, ROUTES.list);
  const detail = routeFiles(dir, ROUTES.detail);
  if (!list || !detail) return null;
  return { routeKb: gz(dir, list), detailKb: gz(dir, detail), files: list.length };
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const r = measureJsBudget();
  if (!r) {
    console.error('No production build in .next: run `npm run build` first.');
    process.exit(1);
  }
  console.log(
    `/executions         ${r.routeKb.toFixed(1)} KB gzipped in ${r.files} files (budget ${LIST_BUDGET_KB} KB): ${r.routeKb <= LIST_BUDGET_KB ? 'OK' : 'OVER'}`,
  );
  console.log(`/executions/[id]    ${r.detailKb.toFixed(1)} KB gzipped`);
  process.exit(r.routeKb <= LIST_BUDGET_KB ? 0 : 1);
}
