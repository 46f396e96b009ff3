/**
 * The route template of a request path, for labels and log fields: `/executions/3f…` is
 * `/executions/[id]`. The templates are the access map's (lib/auth/access.ts), which lists every
 * page and route of app/ (a test walks app/ against it), so the label set is bounded by the code,
 * never by what callers send. Anything else is `other`; Next's assets are one label.
 */
import { PAGE_ACCESS, ROUTE_ACCESS } from '@/lib/auth/access';

type Matcher = { template: string; parts: string[]; static: number };

const matchers: Matcher[] = [...Object.keys(PAGE_ACCESS), ...Object.keys(ROUTE_ACCESS)]
  .map((template) => {
    const parts = template.split('/').filter(Boolean);
    return { template, parts, static: parts.filter((p) => !p.startsWith('[')).length };
  })
  // The most specific template wins: `/api/v1/executions/changes` before `/api/v1/executions/[id]`.
  .sort((a, b) => b.static - a.static || b.parts.length - a.parts.length);

function matches(m: Matcher, segs: string[]): boolean {
  for (let i = 0; i < m.parts.length; i++) {
    const p = m.parts[i];
    if (p.startsWith('[...')) return segs.length > i;
    if (i >= segs.length) return false;
    if (!p.startsWith('[') && p !== segs[i]) return false;
  }
  return segs.length === m.parts.length;
}

export function routeTemplate(pathname: string): string {
  if (pathname.startsWith('/_next/')) return '/_next';
  const segs = pathname.split('?')[0].split('/').filter(Boolean);
  if (segs.length === 0) return '/';
  for (const m of matchers) if (matches(m, segs)) return m.template;
  return 'other';
}
