import type { IncomingMessage, ServerResponse } from 'node:http';
import { db } from '@/lib/db/pool';
import { env } from '@/lib/env';
import { parseIpAllowlist } from '@/lib/ip-allowlist';
import { handleCallback, type CallbackDeps, type CallbackSettings } from './callbacks';
import { DEFAULT_SYNC_OPTIONS } from './config';
import { logFor } from '@/lib/log';

/**
 * The two doors of `POST /api/idv/callback`, both onto the one receiver (`handleCallback`) with
 * the same settings and database handle:
 *
 * - the console server (scripts/console-server.ts) answers it before Next sees the request, with
 *   `serveCallback`: Next's routing, proxy and route machinery cost more server time than the
 *   receiver's whole hot path (`npm run bench:callbacks` measures both doors);
 * - the route (app/api/idv/callback/route.ts) answers it when Next runs without that server, and
 *   is the baseline the benchmark compares with (`CALLBACK_VIA_NEXT=1`).
 *
 * Free of `server-only` (the console server is plain Node); the handle is the process-wide one
 * (lib/db/pool.ts), shared with the routes.
 */
export const CALLBACK_PATH = '/api/idv/callback';

let settings: CallbackSettings | undefined;
/** The receiver's settings from the environment, read once per process. */
export function callbackSettings(): CallbackSettings {
  if (!settings) {
    const e = env();
    const allowlist = parseIpAllowlist(e.CALLBACK_IP_ALLOWLIST);
    settings = {
      secret: e.IDV_CALLBACK_SECRET,
      allowlist: allowlist.ok ? allowlist.list : null,
      maxBytes: DEFAULT_SYNC_OPTIONS.callbackMaxBytes,
    };
  }
  return settings;
}

export function callbackDeps(): CallbackDeps {
  return { db: db(), settings: callbackSettings(), log: (line) => logFor('callback').warn(line) };
}

/** Whether the console server answers this request itself (set CALLBACK_VIA_NEXT=1 to leave it to Next). */
export function isCallbackRequest(req: IncomingMessage, via = process.env.CALLBACK_VIA_NEXT): boolean {
  if (req.method !== 'POST' || !req.url || via === '1') return false;
  const q = req.url.indexOf('?');
  return (q < 0 ? req.url : req.url.slice(0, q)) === CALLBACK_PATH;
}

/**
 * At most `max + 1` bytes of the body (enough for the receiver to see it is too long), or none
 * when the declared length already is; `complete` tells whether the rest was left unread.
 */
function readAtMost(req: IncomingMessage, max: number): Promise<{ bytes: Buffer; complete: boolean }> {
  const declared = Number(req.headers['content-length'] ?? '');
  if (Number.isFinite(declared) && declared > max) return Promise.resolve({ bytes: Buffer.alloc(0), complete: false });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const done = (complete: boolean) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', reject);
      if (!complete) req.pause();
      resolve({ bytes: Buffer.concat(chunks), complete });
    };
    const onData = (c: Buffer) => {
      chunks.push(c);
      total += c.byteLength;
      if (total > max) done(false);
    };
    const onEnd = () => done(true);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', reject);
  });
}

/**
 * Answers the callback on Node's request and response: the body (capped) and headers as the
 * receiver's Request, its Response written back. The checks, the limits and the one insert are
 * `handleCallback`'s alone.
 */
export async function serveCallback(req: IncomingMessage, res: ServerResponse, deps: CallbackDeps): Promise<void> {
  let response: Response;
  let complete = true;
  try {
    const body = await readAtMost(req, deps.settings.maxBytes);
    complete = body.complete;
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
    // Only the path and query of the URL are read; the Host header is the client's word.
    const request = new Request(`http://localhost${req.url}`, {
      method: 'POST',
      headers,
      body: body.bytes.byteLength ? (body.bytes as unknown as BodyInit) : undefined,
    });
    response = await handleCallback(request, deps);
  } catch (err) {
    if (req.destroyed) return;
    deps.log?.(`callback failed: ${err instanceof Error ? err.name : 'error'}`);
    response = Response.json(
      { title: 'Internal Server Error', status: 500, detail: 'The callback could not be handled.' },
      { status: 500, headers: { 'cache-control': 'no-store' } },
    );
  }
  const out = Buffer.from(await response.arrayBuffer());
  const head: Record<string, string | number> = Object.fromEntries(response.headers);
  head['content-length'] = out.byteLength;
  // A body left unread (too long) is not drained: the connection closes after the answer.
  if (!complete) head.connection = 'close';
  res.writeHead(response.status, head);
  res.end(out);
}
