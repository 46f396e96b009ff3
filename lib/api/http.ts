import 'server-only';
import type { z } from 'zod';
import { audit } from '@/lib/audit';
import { countDeniedCall } from '@/lib/auth/denied-calls';
import { logError } from '@/lib/log';
import { answeringOutages, problem } from '@/lib/http/problem';
import { isDatabaseOutage } from '@/lib/db/outage';
import { clientIpFrom } from '@/lib/request';
import { authenticateApiKey, countApiCall, type ApiCaller } from './keys';
import type { FeedPosition } from '@/lib/db/change-feed';

/** A failure the caller caused or may see: answered as problem JSON with this status. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

/** Parses query or path input; a failure is a 400 naming the first failing parameter. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const keys = issue.code === 'unrecognized_keys' ? (issue as { keys?: string[] }).keys : undefined;
  if (keys?.length) throw new ApiProblem(400, 'Bad request', `${keys[0]}: is not a parameter of this operation`);
  const path = issue.path.map(String).join('.');
  throw new ApiProblem(400, 'Bad request', path ? `${path}: ${issue.message}` : issue.message);
}

export function queryOf(req: Request): Record<string, string> {
  return Object.fromEntries(new URL(req.url).searchParams.entries());
}

/**
 * Cursors are opaque to callers (a versioned base64url of the feed position: the transaction id
 * and the row key, lib/db/change-feed.ts) so the order behind them can change without breaking
 * an integration; one that does not decode, or belongs to another feed's key type, is a 400.
 */
export function encodeCursor(p: FeedPosition | null): string | null {
  return p ? Buffer.from(JSON.stringify({ v: 2, x: p.txid, k: p.key })).toString('base64url') : null;
}

const KEY_RE = {
  bigint: /^\d{1,18}$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
};

export function decodeCursor(cursor: string | undefined, keyType: 'bigint' | 'uuid'): FeedPosition | undefined {
  if (cursor === undefined) return undefined;
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as {
      v?: unknown;
      x?: unknown;
      k?: unknown;
    };
    // Transaction ids are 64-bit; 18 digits keep them and the sequence within a bigint.
    if (
      v.v === 2 &&
      typeof v.x === 'string' &&
      /^\d{1,18}$/.test(v.x) &&
      typeof v.k === 'string' &&
      KEY_RE[keyType].test(v.k)
    )
      return { txid: v.x, key: v.k };
  } catch {
    /* answered below */
  }
  throw new ApiProblem(400, 'Bad request', 'cursor: is not a cursor this API gave out (use `next` of a page as is)');
}

export interface ApiResult {
  body: unknown;
  status?: number;
  /** The record read, for the audit log (an execution's summary is audited like a page view). */
  target?: { type: string; id: string };
}

type RouteContext = { params: Promise<Record<string, string | string[]>> };

/**
 * Every read-API operation is built with this. The key is checked first (missing, wrong,
 * revoked or expired: one 401), then counted against its per-minute limit (429 with
 * Retry-After), then the operation runs. Every call, refused ones included, is one audit entry
 * naming the key, the operation and the status; an execution read also names the execution.
 * Errors are problem JSON; an unexpected failure is logged without its message and answered 500,
 * and while the database cannot be reached every step answers 503 (then nothing is audited: the
 * audit log is in that database).
 */
export function apiOperation(
  operation: string,
  run: (input: { req: Request; params: Record<string, string | string[]>; caller: ApiCaller }) => Promise<ApiResult>,
) {
  return answeringOutages(async (req: Request, ctx?: RouteContext): Promise<Response> => {
    const ip = clientIpFrom(req.headers);
    const caller = await authenticateApiKey(req.headers.get('authorization'), ip);
    if (!caller) {
      // Nobody known: counted per address and minute, one audit entry each (lib/auth/denied-calls.ts).
      await countDeniedCall('api_key', ip);
      return problem(401, 'Unauthorized', 'Send a valid, unexpired API key as `Authorization: Bearer <key>`.', {
        'WWW-Authenticate': 'Bearer',
      });
    }
    const who = { actorEmail: `api-key:${caller.prefix}`, targetType: 'api_key', targetId: caller.keyId, ip };
    const limit = await countApiCall(caller.keyId);
    if (!limit.allowed) {
      await audit({ action: 'api.call', outcome: 'denied', ...who, details: { operation, status: 429 } });
      return problem(429, 'Too many requests', `This key is over its limit; retry in ${limit.retryAfter} s.`, {
        'Retry-After': String(limit.retryAfter),
      });
    }
    let res: Response;
    let target: ApiResult['target'];
    try {
      const out = await run({ req, params: (await ctx?.params) ?? {}, caller });
      target = out.target;
      res = Response.json(out.body, { status: out.status ?? 200, headers: { 'Cache-Control': 'no-store' } });
    } catch (err) {
      if (err instanceof ApiProblem) res = problem(err.status, err.title, err.detail, err.headers);
      else if (isDatabaseOutage(err)) throw err;
      else {
        logError(`api ${operation}`, err);
        res = problem(500, 'Internal error', 'Something went wrong on our side; try again.');
      }
    }
    await audit({
      action: 'api.call',
      outcome: res.status < 400 ? 'success' : 'failure',
      ...who,
      ...(target ? { targetType: target.type, targetId: target.id } : {}),
      details: { operation, status: res.status, ...(target ? { keyId: caller.keyId } : {}) },
    });
    return res;
  });
}
