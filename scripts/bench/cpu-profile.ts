/**
 * Where a console's CPU time went (`npm run bench:load -- --profile`): the V8 profiles the
 * consoles write at exit (`--cpu-prof`), self time summed by where the code lives (a package, the
 * app's bundled chunks, Node's internals, garbage collection, idle) and by function.
 */
import fs from 'node:fs';
import path from 'node:path';

interface Profile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  samples: number[];
  timeDeltas: number[];
}

function placeOf(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] === 'next' && /compiled\/react/.test(url) ? 'react (in next)' : pkg[1];
  if (url.includes('/.next/server/')) return 'console code (bundled app, lib, react)';
  if (url.startsWith('node:')) return 'node internals';
  return path.basename(url);
}

export function summarizeProfiles(dir: string, top = 10): string[] {
  if (!fs.existsSync(dir)) return ['  (no profiles written)'];
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.cpuprofile'))) {
    const p = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Profile;
    const nodes = new Map(p.nodes.map((n) => [n.id, n.callFrame]));
    p.samples.forEach((id, i) => {
      const cf = nodes.get(id)!;
      const us = p.timeDeltas[i] ?? 0;
      total += us;
      const place = placeOf(cf.url, cf.functionName);
      byPlace.set(place, (byPlace.get(place) ?? 0) + us);
      const fn = `${cf.functionName || '(anonymous)'} ${place}`;
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    });
  }
  const rows = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(
        ([k, us]) =>
          `    ${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1e6).toFixed(1).padStart(6)} s  ${k}`,
      );
  return [
    `  consoles' CPU profiles (${(total / 1e6).toFixed(1)} s sampled, idle included), by place:`,
    ...rows(byPlace),
    '  by function:',
    ...rows(byFunction),
  ];
}
