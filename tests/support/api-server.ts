import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { applyClientAddress } from '@/lib/edge/client-address';

/**
 * The read API's route files (`app/api/v1/**\/route.ts`) behind a real HTTP server, routed the
 * way Next routes them (static segments before `[param]` before `[...catchAll]`), with the
 * client address set by the same edge step as the console's own server. Tests talk to it with
 * fetch, so requests, headers and bodies cross a socket as they do in production.
 */

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
interface Route {
  segments: string[];
  handler: Handler;
}

function routeFiles(dir: string, segs: string[] = []): Array<{ segs: string[]; file: string }> {
  const out: Array<{ segs: string[]; file: string }> = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...routeFiles(p, [...segs, e.name]));
    else if (e.name === 'route.ts') out.push({ segs, file: p });
  }
  return out;
}

const rank = (s: string) => (s.startsWith('[...') ? 2 : s.startsWith('[') ? 1 : 0);

function match(route: Route, parts: string[]): Record<string, string | string[]> | null {
  const params: Record<string, string | string[]> = {};
  for (let i = 0; i < route.segments.length; i++) {
    const s = route.segments[i];
    if (s.startsWith('[...')) {
      if (i >= parts.length) return null;
      params[s.slice(4, -1)] = parts.slice(i);
      return params;
    }
    if (i >= parts.length) return null;
    if (s.startsWith('[')) params[s.slice(1, -1)] = decodeURIComponent(parts[i]);
    else if (s !== parts[i]) return null;
  }
  return route.segments.length === parts.length ? params : null;
}

export interface ApiServer {
  url: string;
  close(): Promise<void>;
}

export async function startApiServer(): Promise<ApiServer> {
  const root = path.resolve('app/api/v1');
  const routes: Route[] = [];
  for (const { segs, file } of routeFiles(root)) {
    const mod = (await import(file)) as { GET?: Handler };
    if (mod.GET) routes.push({ segments: segs, handler: mod.GET });
  }
  // Next's precedence: more static segments first, then dynamic, then catch-all.
  routes.sort((a, b) => {
    for (let i = 0; i < Math.max(a.segments.length, b.segments.length); i++) {
      const d = rank(a.segments[i] ?? '[...z]') - rank(b.segments[i] ?? '[...z]');
      if (d) return d;
    }
    return b.segments.length - a.segments.length;
  });

  const server = http.createServer(async (req, res) => {
    applyClientAddress(req, 0);
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    const parts = url.pathname
      .replace(/^\/api\/v1\/?/, '')
      .split('/')
      .filter(Boolean);
    let response: Response;
    const found = url.pathname.startsWith('/api/v1/')
      ? routes.map((r) => ({ r, params: match(r, parts) })).find((x) => x.params)
      : undefined;
    if (!found) response = new Response('not found', { status: 404 });
    else if (req.method !== 'GET') response = new Response(null, { status: 405, headers: { Allow: 'GET' } });
    else {
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      response = await found.r.handler(new Request(url, { method: 'GET', headers }), {
        params: Promise.resolve(found.params!),
      });
    }
    res.statusCode = response.status;
    response.headers.forEach((v, k) => res.setHeader(k, v));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/v1`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
