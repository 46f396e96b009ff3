import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Browser } from '@playwright/test';
import { ACTION_ACCESS, PAGE_ACCESS, ROUTE_ACCESS, type Access } from '../../lib/auth/access';
import { signInAs, signOut, storageState } from '../support/e2e/helpers';

/**
 * Walks every page, route handler and server action of the build and checks that each refuses
 * a signed-out caller and a caller below its role by itself. "Signed out" here is the hard
 * case: a cookie that is still validly signed but whose session was ended, so the proxy lets
 * it through and only the page's, route's or action's own guard can refuse it.
 */
// `api-key` and `metrics-token` rank above every role: no session reaches them.
const RANK: Record<Access, number> = { public: 0, analyst: 1, manager: 2, admin: 3, 'api-key': 4, 'metrics-token': 4 };
const DUMMY_ID = '00000000-0000-4000-8000-000000000000';

function routesOf(file: 'page.tsx' | 'route.ts'): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === file) {
        const segs = path
          .relative('app', dir)
          .split(path.sep)
          .filter((s) => s && !(s.startsWith('(') && s.endsWith(')')));
        out.push(`/${segs.join('/')}`);
      }
    }
  };
  walk('app');
  return out;
}
const concrete = (route: string) => route.replace(/\[\.\.\.[^\]]+\]/g, 'x').replace(/\[[^\]]+\]/g, DUMMY_ID);

async function endedSessionState(browser: Browser): Promise<string> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, 'analyst');
  const file = 'tests/e2e/.auth/ended.json';
  await context.storageState({ path: file });
  await signOut(page);
  await context.close();
  return file;
}

test.describe('authorization of every route and action', () => {
  const pages = routesOf('page.tsx');
  const routes = routesOf('route.ts');

  test('every page and route is declared in lib/auth/access.ts', () => {
    expect(
      pages.filter((p) => !(p in PAGE_ACCESS)),
      'pages missing from PAGE_ACCESS',
    ).toEqual([]);
    expect(
      routes.filter((r) => !(r in ROUTE_ACCESS)),
      'routes missing from ROUTE_ACCESS',
    ).toEqual([]);
  });

  test('pages refuse signed-out visitors, ended sessions and users below their role', async ({
    browser,
    playwright,
    baseURL,
  }) => {
    const ended = await endedSessionState(browser);
    const anon = await playwright.request.newContext({ baseURL });
    const endedCtx = await playwright.request.newContext({ baseURL, storageState: ended });
    const analyst = await playwright.request.newContext({ baseURL, storageState: storageState('analyst') });
    const manager = await playwright.request.newContext({ baseURL, storageState: storageState('manager') });
    for (const route of pages) {
      const access = PAGE_ACCESS[route];
      if (access === 'public') continue;
      const url = concrete(route);
      for (const [who, ctx] of [
        ['signed out', anon],
        ['ended session', endedCtx],
      ] as [string, APIRequestContext][]) {
        const r = await ctx.get(url, { maxRedirects: 0 });
        expect([303, 307, 308], `${who} GET ${url} must redirect to sign-in, got ${r.status()}`).toContain(r.status());
        expect(r.headers().location, `${who} GET ${url}`).toMatch(/\/login/);
      }
      for (const [role, ctx] of [
        ['analyst', analyst],
        ['manager', manager],
      ] as const) {
        if (RANK[role] >= RANK[access]) continue;
        const r = await ctx.get(url, { maxRedirects: 0 });
        expect(r.status(), `${role} GET ${url} (needs ${access})`).toBe(403);
      }
    }
  });

  test('route handlers refuse signed-out callers, ended sessions and users below their role', async ({
    browser,
    playwright,
    baseURL,
  }) => {
    const ended = await endedSessionState(browser);
    const contexts = {
      anon: await playwright.request.newContext({ baseURL }),
      ended: await playwright.request.newContext({ baseURL, storageState: ended }),
      analyst: await playwright.request.newContext({ baseURL, storageState: storageState('analyst') }),
      manager: await playwright.request.newContext({ baseURL, storageState: storageState('manager') }),
    };
    const admin = await playwright.request.newContext({ baseURL, storageState: storageState('admin') });
    for (const route of routes) {
      const access = ROUTE_ACCESS[route];
      if (access === 'public') continue;
      const url = concrete(route);
      if (access === 'api-key' || access === 'metrics-token') {
        // The read API takes a key and /metrics its token, never a session: every caller without one gets 401.
        for (const [who, ctx] of Object.entries({ ...contexts, admin })) {
          const r = await ctx.get(url, { maxRedirects: 0 });
          expect(r.status(), `${who} GET ${url} without a key`).toBe(401);
          const p = await ctx.post(url, { maxRedirects: 0, data: {} });
          expect([401, 405], `${who} POST ${url} without a key`).toContain(p.status());
        }
        continue;
      }
      for (const method of ['GET', 'POST'] as const) {
        for (const who of ['anon', 'ended'] as const) {
          const r = await contexts[who].fetch(url, {
            method,
            maxRedirects: 0,
            data: method === 'POST' ? {} : undefined,
          });
          // 405: the route has no handler for this method, which refuses as well.
          expect([401, 405], `${who} ${method} ${url}`).toContain(r.status());
        }
        for (const role of ['analyst', 'manager'] as const) {
          if (RANK[role] >= RANK[access]) continue;
          const r = await contexts[role].fetch(url, {
            method,
            maxRedirects: 0,
            data: method === 'POST' ? {} : undefined,
          });
          expect([403, 405], `${role} ${method} ${url} (needs ${access})`).toContain(r.status());
        }
      }
    }
  });

  test('server actions refuse ended sessions and users below their role, whatever the input', async ({
    browser,
    playwright,
    baseURL,
  }) => {
    const manifest = JSON.parse(fs.readFileSync('.next/server/server-reference-manifest.json', 'utf8')) as {
      node: Record<string, { workers: Record<string, unknown>; filename?: string; exportedName?: string }>;
    };
    const actions = Object.entries(manifest.node).filter(([, a]) => a.filename && !a.filename.includes('node_modules'));
    expect(actions.length).toBeGreaterThan(0);
    // With a turbopack root above the project (a worktree whose node_modules is a symlink), file names carry the folder name.
    // Actions live in lib/actions/ (components never import app/).
    const fileOf = (a: { filename?: string }) => a.filename!.replace(/^(?:.*\/)?(?=(?:app|lib)\/)/, '');
    const declared = actions.map(([, a]) => `${fileOf(a)}#${a.exportedName}`);
    expect(
      declared.filter((k) => !(k in ACTION_ACCESS)),
      'actions missing from ACTION_ACCESS',
    ).toEqual([]);

    const ended = await endedSessionState(browser);
    const contexts = {
      ended: await playwright.request.newContext({ baseURL, storageState: ended }),
      analyst: await playwright.request.newContext({ baseURL, storageState: storageState('analyst') }),
      manager: await playwright.request.newContext({ baseURL, storageState: storageState('manager') }),
    };
    for (const [id, a] of actions) {
      const key = `${fileOf(a)}#${a.exportedName}`;
      const role = ACTION_ACCESS[key];
      const worker = Object.keys(a.workers)[0];
      const pageUrl = concrete(
        `/${worker
          .replace(/^app\//, '')
          .replace(/\/page$/, '')
          .split('/')
          .filter((s) => !(s.startsWith('(') && s.endsWith(')')))
          .join('/')}`,
      );
      const call = (ctx: APIRequestContext, args: unknown[]) =>
        ctx.post(pageUrl, {
          headers: { 'Next-Action': id, 'Content-Type': 'text/plain;charset=UTF-8', Accept: 'text/x-component' },
          data: JSON.stringify(args),
          maxRedirects: 0,
        });
      for (const args of [
        [],
        [{ userId: DUMMY_ID, role: 'admin', active: 'false', email: 'x@example.test', name: 'X' }],
      ]) {
        const r = await call(contexts.ended, args);
        expect(await r.text(), `ended session calling ${key}`).toContain('UNAUTHENTICATED');
        for (const who of ['analyst', 'manager'] as const) {
          if (RANK[who] >= RANK[role]) continue;
          const rr = await call(contexts[who], args);
          expect(await rr.text(), `${who} calling ${key} (needs ${role})`).toContain('FORBIDDEN');
        }
      }
    }
  });
});
