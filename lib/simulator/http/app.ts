import { Hono, type Context } from 'hono';
import { parseBasic, safeEqual, TokenService } from '../auth';
import type { CallbackDispatcher } from '../callbacks';
import { ApiError, bad, forbidden, notFound, problem } from '../errors';
import { isUuid } from '../ids';
import type { Engine } from '../state';
import { DEFAULT_FAULTS, type FaultKnobs, type RateLimitSettings } from '../types';
import type { HttpBindings } from '@hono/node-server';
import { Bucket, SlidingWindow, tooMany, type RateClass, type RateMeter } from './rate-limits';

type Env = { Bindings: HttpBindings };
export type C = Context<Env>;

export const P = (c: C, name: string): string => c.req.param(name) ?? '';

export function uuidParam(name: string, v: string): string {
  if (!isUuid(v)) throw bad(`${name} must be a UUID (got "${v.slice(0, 60)}")`);
  return v.toLowerCase();
}

export interface ServerDeps {
  engine: Engine;
  tokens: TokenService;
  callbacks: CallbackDispatcher;
  faults: FaultKnobs;
  clientId: string;
  clientSecret: string;
  baseUrl: () => string;
  accessTokenLifetimeSec: number;
  rateLimits: RateLimitSettings | null;
  allowInsecureCallbacks: boolean;
  /** Whether callbacks may go to this host (lower-case, without brackets). */
  callbackHostAllowed: (host: string) => boolean;
  reportSecret: string;
  log?: (line: string) => void;
  stats: {
    requests: number;
    byStatus: Record<string, number>;
    rates: Record<RateClass, RateMeter>;
    /** Accepted feedback writes (R11) per execution id: a label sent twice shows as 2. */
    feedbackWrites: Map<string, number>;
  };
}

/**
 * The transport of the simulator: statistics and fault knobs on every request, errors as
 * `{title, status, detail}`, routing with 405 and `Allow`, rate limits and the two kinds of
 * authentication. The operations (routes/) only parse, ask the engine and respond.
 */
export function createHttp(d: ServerDeps) {
  const { engine, tokens } = d;
  const app = new Hono<Env>();
  const rl = d.rateLimits;
  const tokenWindow = new SlidingWindow(rl?.tokenPerSec ?? Infinity);
  const accountBucket = new Bucket(rl?.accountPerSec ?? 1, rl?.accountBurst ?? 1);
  const retrievalBucket = new Bucket(rl?.retrievalPerSec ?? 1, rl?.retrievalBurst ?? 1);
  const buckets = { account: accountBucket, retrieval: retrievalBucket };
  // Every request of a limited class is metered (peak per second), with limits on or off.
  const limit = (kind: 'account' | 'retrieval') => {
    const meter = d.stats.rates[kind];
    meter.hit();
    if (!rl) return;
    const wait = buckets[kind].take();
    if (wait) {
      meter.rejected++;
      throw tooMany(wait);
    }
  };
  const limitToken = () => {
    const meter = d.stats.rates.token;
    meter.hit();
    if (rl && !tokenWindow.take()) {
      meter.rejected++;
      throw tooMany(1);
    }
  };
  const resetLimits = () => {
    tokenWindow.reset();
    accountBucket.reset();
    retrievalBucket.reset();
    for (const meter of Object.values(d.stats.rates)) meter.reset();
    d.stats.feedbackWrites.clear();
  };
  const base = () => d.baseUrl();
  const execUrl = (a: string, w: string) => `${base()}/api/v1/accounts/${a}/workflow-executions/${w}`;
  const now = () => new Date().toISOString();

  // ---------- cross-cutting: stats, faults, errors ----------
  app.use('*', async (c, next) => {
    const started = Date.now();
    const path = c.req.path;
    const isSim = path.startsWith('/__sim');
    if (!isSim) {
      d.stats.requests++;
      const f = d.faults;
      if (f.latencyMs > 0) await new Promise((r) => setTimeout(r, f.latencyMs));
      if (f.burst429 > 0) {
        f.burst429--;
        c.res = problem(429, 'Request limit exceeded', { 'retry-after': '1' });
      } else if (f.errorRate > 0 && Math.random() < f.errorRate) {
        c.res = problem(503, 'Simulated service failure (fault knob errorRate)', { 'retry-after': '1' });
      } else await next();
    } else await next();
    if (!isSim) d.stats.byStatus[c.res.status] = (d.stats.byStatus[c.res.status] ?? 0) + 1;
    d.log?.(`${c.req.method} ${path} ${c.res.status} ${Date.now() - started}ms`);
  });
  app.onError((err, c) => {
    if (err instanceof ApiError) return problem(err.status, err.detail, err.headers);
    d.log?.(`500 on ${c.req.method} ${c.req.path}: ${err instanceof Error ? err.stack : String(err)}`);
    return problem(500, 'Unexpected error in the simulator');
  });
  app.notFound((c) => problem(404, `No operation at ${c.req.method} ${c.req.path}`));

  // ---------- routing with 405 + Allow ----------
  type H = (c: C) => Promise<Response> | Response;
  const route = (path: string, methods: Record<string, H>) => {
    const allow = Object.keys(methods).join(', ');
    app.all(path, async (c) => {
      const m = c.req.method === 'HEAD' && methods.GET ? 'GET' : c.req.method;
      if (m === 'OPTIONS') return new Response(null, { status: 204, headers: { allow } });
      const h = methods[m];
      if (!h) return problem(405, `${c.req.method} is not allowed on ${c.req.path}; allowed: ${allow}`, { allow });
      return h(c);
    });
  };

  // ---------- auth helpers ----------
  const access = async (c: C) => tokens.verify(c.req.header('authorization'), 'access');
  const requireBasic = (c: C) => {
    const b = parseBasic(c.req.header('authorization'));
    if (!b || !safeEqual(b.id, d.clientId) || !safeEqual(b.secret, d.clientSecret))
      throw new ApiError(
        401,
        b ? 'Invalid client credentials' : 'Client credentials are required as HTTP Basic authentication',
        { 'www-authenticate': 'Basic realm="idv"' },
      );
  };
  // C1-C7 are authorized by the execution's transaction token, per credential.
  const credentialPrelude = async (c: C, opts: { credential: boolean; upload: boolean }) => {
    const a = uuidParam('accountId', P(c, 'a'));
    const w = uuidParam('workflowExecutionId', P(c, 'w'));
    const cid = opts.credential ? uuidParam('credentialId', P(c, 'c')) : undefined;
    const claims = await tokens.verify(c.req.header('authorization'), 'transaction');
    if (claims.wid !== w) throw forbidden('The transaction token does not authorize this workflow execution');
    if (cid && !(claims.cids ?? []).includes(cid))
      throw forbidden('The transaction token does not authorize this credential');
    const e = engine.executions.get(w);
    if (!e || e.accountId !== a) throw notFound(`Workflow execution ${w} not found for account ${a}`);
    engine.advance(e, Date.now());
    if (e.deleted) throw notFound(`Workflow execution ${w} has been deleted`);
    const cred = cid ? e.credentials.find((x) => x.id === cid) : undefined;
    if (cid && !cred) throw notFound(`Credential ${cid} not found in workflow execution ${w}`);
    if (cred && !cred.allowedChannels.includes('API'))
      throw forbidden(`Credential ${cid} does not allow the API channel (allowed: ${cred.allowedChannels.join(', ')})`);
    if (opts.upload) {
      if (e.status !== 'INITIATED')
        throw bad(`Uploads are accepted only while the workflow execution is INITIATED; it is ${e.status}`);
      const consent = e.request.userConsent?.consent?.obtained;
      if (consent !== undefined && consent.toLowerCase() !== 'yes')
        throw forbidden(
          `End-user consent was not obtained (userConsent.consent.obtained is "${consent}"): API uploads are refused`,
        );
    }
    return { e, cred: cred!, a, w };
  };
  const retrieval = async (c: C) => {
    limit('retrieval');
    return access(c);
  };
  const normClassifier = (raw: string) => raw.toUpperCase();
  const resetAll = () => {
    engine.reset();
    d.callbacks.reset();
    tokens.reset();
    resetLimits();
    Object.assign(d.faults, DEFAULT_FAULTS);
  };
  return {
    d,
    engine,
    tokens,
    app,
    rl,
    credentialPrelude,
    route,
    access,
    requireBasic,
    limit,
    limitToken,
    resetLimits,
    base,
    execUrl,
    now,
    retrieval,
    normClassifier,
    resetAll,
  };
}

export type RouteContext = ReturnType<typeof createHttp>;
