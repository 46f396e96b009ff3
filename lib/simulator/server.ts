// HTTP surface of the simulator: every operation of the spec (T, A1, A2, C1-C7, R1-R12) on one base
// URL, with the paths of service-facts.md, plus health, a presigned report URL and /__sim test tools.
import { createHmac, randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import { z } from 'zod';
import { CATEGORY_CLASSIFIERS, CATEGORY_LABELS, DEFAULT_CHANNELS, DEFINITION_BY_KEY, type Category } from './catalog';
import { parseBasic, safeEqual, TokenService } from './auth';
import type { CallbackDispatcher } from './callbacks';
import { ApiError, bad, forbidden, notFound, problem, unauthorized } from './errors';
import { isUuid } from './ids';
import { pdfReport } from './pdf';
import {
  accountRequestSchema,
  feedbackSchema,
  parseOr400,
  preparedDataSchema,
  tokenLifetimeSeconds,
  type AccountRequest,
} from './schemas';
import type { ApiAccount, ApiCredential, ApiExecution, Engine, ExecutionRef } from './state';
import { DEFAULT_FAULTS, type FaultKnobs, type RateLimitSettings } from './types';
import { checkImageForPart, inspectImage, isPdf, MAX_UPLOAD_BYTES, UploadRuleError } from './uploads';

type Env = { Bindings: HttpBindings };
type C = Context<Env>;

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
  reportSecret: string;
  log?: (line: string) => void;
  stats: { requests: number; byStatus: Record<string, number> };
}

const JSON_LIMIT = 1024 * 1024;
const MULTIPART_SLACK = 1024 * 1024;
const HARD_CAP = 64 * 1024 * 1024;

// ---------- rate limiting ----------
class SlidingWindow {
  private hits: number[] = [];
  constructor(
    private readonly limit: number,
    private readonly windowMs = 1000,
  ) {}
  take(now = Date.now()): boolean {
    while (this.hits.length && this.hits[0] <= now - this.windowMs) this.hits.shift();
    if (this.hits.length >= this.limit) return false;
    this.hits.push(now);
    return true;
  }
  reset() {
    this.hits = [];
  }
}
class Bucket {
  private tokens: number;
  private last = Date.now();
  constructor(
    private readonly rate: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
  }
  take(now = Date.now()): number {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - this.tokens) / this.rate));
  }
  reset() {
    this.tokens = this.burst;
    this.last = Date.now();
  }
}
const tooMany = (retryAfter: number) =>
  new ApiError(429, 'Request limit exceeded', { 'retry-after': String(retryAfter) });

// ---------- body helpers ----------
async function readBody(c: C, limit: number): Promise<{ buf: Buffer; over: boolean }> {
  const body = c.req.raw.body;
  if (!body) return { buf: Buffer.alloc(0), over: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0,
    over = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > HARD_CAP) {
      await reader.cancel().catch(() => undefined);
      over = true;
      break;
    }
    if (total > limit) over = true;
    else chunks.push(value);
  }
  return { buf: over ? Buffer.alloc(0) : Buffer.concat(chunks), over };
}

async function readJson(c: C): Promise<unknown> {
  const { buf, over } = await readBody(c, JSON_LIMIT);
  if (over) throw new ApiError(413, 'The JSON body is larger than 1 MB');
  const text = buf.toString('utf8').trim();
  if (!text) throw bad('A JSON body is required');
  try {
    return JSON.parse(text);
  } catch {
    throw bad('Malformed JSON body');
  }
}

async function readFiles(c: C, what: 'image' | 'document'): Promise<Buffer[]> {
  const ct = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(ct)) {
    await readBody(c, 0);
    throw bad('Expected a multipart/form-data body with the file in a field named "file"');
  }
  const { buf, over } = await readBody(c, MAX_UPLOAD_BYTES + MULTIPART_SLACK);
  const tooLarge =
    what === 'image'
      ? 'Image file size: file too large (at most 15 MB)'
      : 'Document file size: file too large (at most 15 MB)';
  if (over) throw bad(tooLarge);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(buf), { headers: { 'content-type': ct } }).formData();
  } catch {
    throw bad('Malformed multipart/form-data body');
  }
  const entries = form.getAll('file');
  if (!entries.length) throw bad('The multipart field "file" is required');
  const out: Buffer[] = [];
  for (const f of entries) {
    if (typeof f === 'string') throw bad('The multipart field "file" must be a file, not a text value');
    if (f.size > MAX_UPLOAD_BYTES) throw bad(tooLarge);
    out.push(Buffer.from(await f.arrayBuffer()));
  }
  return out;
}

const P = (c: C, name: string): string => c.req.param(name) ?? '';

function uuidParam(name: string, v: string): string {
  if (!isUuid(v)) throw bad(`${name} must be a UUID (got "${v.slice(0, 60)}")`);
  return v.toLowerCase();
}

function checkCallbackUrl(u: string, allowInsecure: boolean) {
  let url: URL;
  try {
    url = new URL(u);
  } catch {
    throw bad('callbackUrl: must be an absolute URL');
  }
  if (url.protocol !== 'https:' && !(allowInsecure && url.protocol === 'http:'))
    throw bad('callbackUrl: must use HTTPS');
  if (allowInsecure) return;
  if (url.port) throw bad('callbackUrl: must not contain a port');
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(url.hostname) || url.hostname.startsWith('['))
    throw bad('callbackUrl: the host must be a domain name, not an IP address');
}

const PART_NAMES: Record<Category, Record<string, string>> = {
  ID: { front: 'FRONT', back: 'BACK' },
  SELFIE: { face: 'FACE' },
  DATA: { prepared_data: 'PREPARED_DATA' },
  FACEMAP: {},
  DOCUMENT: { document: 'DOCUMENT' },
};
const UPLOAD_EVENT: Record<string, string> = {
  FRONT: 'id-front-uploaded',
  BACK: 'id-back-uploaded',
  FACE: 'selfie-uploaded',
  PREPARED_DATA: 'prepared-data-uploaded',
  DOCUMENT: 'document-uploaded',
};

export function createApp(d: ServerDeps) {
  const { engine, tokens } = d;
  const app = new Hono<Env>();
  const rl = d.rateLimits;
  const tokenWindow = new SlidingWindow(rl?.tokenPerSec ?? Infinity);
  const accountBucket = new Bucket(rl?.accountPerSec ?? 1, rl?.accountBurst ?? 1);
  const retrievalBucket = new Bucket(rl?.retrievalPerSec ?? 1, rl?.retrievalBurst ?? 1);
  const limit = (b: Bucket) => {
    if (!rl) return;
    const wait = b.take();
    if (wait) throw tooMany(wait);
  };
  const resetLimits = () => {
    tokenWindow.reset();
    accountBucket.reset();
    retrievalBucket.reset();
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

  // =====================================================================
  // Health
  route('/', {
    GET: (c) => {
      const f = d.faults;
      const details = {
        api: f.errorRate > 0 ? 'DEGRADED' : 'UP',
        callback: f.dropCallbacks > 0 ? 'DEGRADED' : 'UP',
        mobile: 'UP',
        processing: f.stallProcessing ? 'DEGRADED' : 'UP',
        retrieval: f.errorRate > 0 ? 'DEGRADED' : 'UP',
        web: 'UP',
      };
      return c.json({ status: Object.values(details).includes('DEGRADED') ? 'DEGRADED' : 'UP', details });
    },
  });

  // =====================================================================
  // T: token
  route('/oauth2/token', {
    POST: async (c) => {
      if (rl && !tokenWindow.take()) throw tooMany(1);
      requireBasic(c);
      const { buf, over } = await readBody(c, 64 * 1024);
      if (over) throw new ApiError(413, 'The token request body is too large');
      const form = new URLSearchParams(buf.toString('utf8'));
      const grant = form.get('grant_type');
      if (!grant)
        throw bad(
          'grant_type is required: send the form field grant_type=client_credentials (application/x-www-form-urlencoded)',
        );
      if (grant !== 'client_credentials')
        throw bad(`Unsupported grant_type "${grant.slice(0, 40)}": only client_credentials is supported`);
      const life = d.faults.tokenLifetimeSec ?? d.accessTokenLifetimeSec;
      const t = await tokens.accessToken(d.clientId, life);
      return c.json({ access_token: t.token, expires_in: t.expiresIn, token_type: 'Bearer' }, 200, {
        'cache-control': 'no-store',
      });
    },
  });

  // =====================================================================
  // A1, A2: accounts
  const accountPrelude = async (c: C): Promise<AccountRequest> => {
    limit(accountBucket);
    await access(c);
    const ua = c.req.header('user-agent');
    if (!ua || !ua.trim())
      throw bad(
        'Header User-Agent is required on account operations (name your business and app, e.g. "Acme Review/1.0")',
      );
    const body = await readJson(c);
    const req = parseOr400(accountRequestSchema, body, 'account request');
    if (req.callbackUrl) checkCallbackUrl(req.callbackUrl, d.allowInsecureCallbacks);
    return req;
  };

  const createExecutionFor = async (c: C, account: ApiAccount, req: AccountRequest) => {
    const def = DEFINITION_BY_KEY.get(req.workflowDefinition.key);
    const reqCreds =
      req.workflowDefinition.credentials ??
      def?.categories.map(
        (category) => ({ category }) as NonNullable<AccountRequest['workflowDefinition']['credentials']>[number],
      );
    if (!reqCreds || !reqCreds.length)
      throw bad(
        `workflowDefinition.credentials: required for workflow definition key "${req.workflowDefinition.key}" (known keys without credentials: ${[...DEFINITION_BY_KEY.keys()].join(', ')})`,
      );
    const seen = new Set<string>();
    const credentials: ApiCredential[] = reqCreds.map((rc, i) => {
      const at = `workflowDefinition.credentials[${i}]`;
      if (seen.has(rc.category))
        throw bad(`${at}.category: at most one ${rc.category} credential per workflow execution`);
      seen.add(rc.category);
      const channels = rc.allowedChannels ? [...new Set(rc.allowedChannels)] : DEFAULT_CHANNELS[rc.category];
      if (rc.category === 'FACEMAP' && channels.includes('API'))
        throw bad(`${at}.allowedChannels: a FACEMAP credential is captured only through WEB or SDK`);
      if (rc.category === 'DATA' && !channels.includes('API'))
        throw bad(`${at}.allowedChannels: a DATA credential is uploaded only through the API channel`);
      const cred: ApiCredential = {
        id: randomUUID(),
        category: rc.category,
        label: CATEGORY_LABELS[rc.category],
        country: rc.country,
        type: rc.type,
        allowedChannels: channels,
        parts: new Map(),
        pages: [],
      };
      if (rc.id) {
        const prev = account.executions
          .map((id) => engine.executions.get(id))
          .flatMap((e) => e?.credentials ?? [])
          .find((x) => x.id === rc.id!.toLowerCase());
        if (!prev) throw bad(`${at}.id: no credential ${rc.id} exists on this account`);
        if (prev.category !== rc.category)
          throw bad(`${at}.id: credential ${rc.id} is a ${prev.category} credential, not ${rc.category}`);
        Object.assign(cred, {
          id: prev.id,
          parts: new Map(prev.parts),
          pages: [...prev.pages],
          preparedData: prev.preparedData,
          preparedDataPartId: prev.preparedDataPartId,
        });
      }
      return cred;
    });
    const w = randomUUID();
    const lifeSec = req.tokenLifetime ? tokenLifetimeSeconds(req.tokenLifetime) : 1800;
    let expiresAt = Date.now() + lifeSec * 1000;
    if (d.faults.tokenLifetimeSec) expiresAt = Math.min(expiresAt, Date.now() + d.faults.tokenLifetimeSec * 1000);
    const apiCreds = credentials.filter((x) => x.allowedChannels.includes('API')).map((x) => x.id);
    const scope = { wid: w, aid: account.id, cids: apiCreds };
    const token = await tokens.scopedToken('transaction', scope, expiresAt);
    const sdkToken = await tokens.scopedToken('sdk', { ...scope, cids: credentials.map((x) => x.id) }, expiresAt);
    const e = engine.createExecution({
      account,
      request: req,
      credentials,
      tokenExpiresAt: expiresAt,
      token,
      sdkToken,
      id: w,
      clientIp: c.env?.incoming?.socket?.remoteAddress ?? '127.0.0.1',
      userAgent: c.req.header('user-agent') ?? '',
      callbackUrl: req.callbackUrl,
    });
    return c.json(
      {
        timestamp: now(),
        account: { id: account.id },
        web: { href: `${base()}/web/${w}`, ...(req.web ?? {}) },
        sdk: { token: sdkToken },
        workflowExecution: {
          id: w,
          credentials: credentials.map((cr) => ({
            id: cr.id,
            category: cr.category,
            label: cr.label,
            ...(cr.country ? { country: cr.country } : {}),
            ...(cr.type ? { type: cr.type } : {}),
            allowedChannels: cr.allowedChannels,
            ...(cr.allowedChannels.includes('API')
              ? {
                  api: {
                    token: e.token,
                    parts: Object.fromEntries(
                      Object.entries(PART_NAMES[cr.category]).map(([n, cls]) => [
                        n,
                        `${execUrl(account.id, w)}/credentials/${cr.id}/parts/${cls}`,
                      ]),
                    ),
                    workflowExecution: execUrl(account.id, w),
                  },
                }
              : {}),
          })),
        },
      },
      200,
    );
  };

  route('/api/v1/accounts', {
    POST: async (c) => {
      const req = await accountPrelude(c);
      const account: ApiAccount = { id: randomUUID(), createdAt: new Date(), executions: [] };
      engine.accounts.set(account.id, account);
      return createExecutionFor(c, account, req);
    },
  });

  route('/api/v1/accounts/:a', {
    PUT: async (c) => {
      const a = uuidParam('accountId', P(c, 'a'));
      const req = await accountPrelude(c);
      const found = engine.findAccount(a);
      if (!found) throw notFound(`Account ${a} not found`);
      if (found.kind === 'seed') {
        // A generated account becomes a real one on its first update.
        const acc: ApiAccount = {
          id: a,
          createdAt: new Date(engine.model.timeOf(Math.max(...engine.seedAccountExecutions(found.index)))),
          executions: [],
          seedIndex: found.index,
        };
        engine.accounts.set(a, acc);
        return createExecutionFor(c, acc, req);
      }
      return createExecutionFor(c, found.acc, req);
    },
    // R9: the account
    GET: async (c) => {
      const a = uuidParam('accountId', P(c, 'a'));
      await retrieval(c);
      const found = engine.findAccount(a);
      if (!found) throw notFound(`Account ${a} not found`);
      const items: Array<Record<string, unknown>> = [];
      let createdAt: string;
      const summary = (ref: ExecutionRef) => {
        const v = engine.view(ref);
        const id = engine.executionIdOf(ref);
        return {
          id,
          href: execUrl(a, id),
          definitionKey: v.definitionKey,
          status: v.status,
          createdAt: v.result.createdAt,
          ...(v.result.wipedOutAt ? { wipedOutAt: v.result.wipedOutAt } : {}),
        };
      };
      if (found.kind === 'api') {
        createdAt = found.acc.createdAt.toISOString();
        if (found.acc.seedIndex !== undefined)
          for (const i of engine.seedAccountExecutions(found.acc.seedIndex))
            items.push(summary({ kind: 'seed', index: i }));
        for (const id of found.acc.executions) {
          const e = engine.executions.get(id);
          if (e) items.push(summary({ kind: 'api', exec: e }));
        }
      } else {
        const idx = engine.seedAccountExecutions(found.index);
        createdAt = new Date(engine.model.timeOf(Math.max(...idx))).toISOString();
        for (const i of idx) items.push(summary({ kind: 'seed', index: i }));
      }
      items.sort((x, y) => String(y.createdAt).localeCompare(String(x.createdAt)));
      return c.json({
        account: { id: a, href: `${base()}/api/v1/accounts/${a}`, createdAt },
        workflowExecutions: items,
      });
    },
    // R10: delete the account and all its executions
    DELETE: async (c) => {
      const a = uuidParam('accountId', P(c, 'a'));
      await retrieval(c);
      const found = engine.findAccount(a);
      if (!found) throw notFound(`Account ${a} not found`);
      engine.deleteAccount(found);
      return c.json({ timestamp: now(), account: { id: a } });
    },
  });

  // =====================================================================
  // C1-C7: credentials (transaction token)
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

  const partsMap = (e: ApiExecution, cred: ApiCredential) => {
    const out: Record<string, Record<string, string>> = {};
    const href = (cls: string) => `${base()}/api/v1/accounts/${e.accountId}/credentials/${cred.id}/parts/${cls}`;
    for (const p of cred.parts.values()) out[p.classifier.toLowerCase()] = { '1': href(p.classifier) };
    if (cred.pages.length)
      out.document = Object.fromEntries(
        cred.pages.map((_, i) => [String(i + 1), `${href('DOCUMENT')}${i ? `?page=${i + 1}` : ''}`]),
      );
    return out;
  };
  const credOpResponse = (
    c: C,
    e: ApiExecution,
    cred: ApiCredential,
    partId?: string,
    parts?: Record<string, unknown>,
  ) =>
    c.json({
      timestamp: now(),
      account: { id: e.accountId },
      workflowExecution: { id: e.id },
      credential: { id: cred.id },
      ...(partId ? { part: { id: partId } } : {}),
      api: { token: e.token, parts: parts ?? partsMap(e, cred) },
    });

  const normClassifier = (raw: string) => raw.toUpperCase();
  const imageClassifier = (cred: ApiCredential, cls: string) => {
    const allowed: string[] = CATEGORY_CLASSIFIERS[cred.category].filter(
      (x) => x === 'FRONT' || x === 'BACK' || x === 'FACE',
    );
    if (!['FRONT', 'BACK', 'FACE'].includes(cls))
      throw bad(`classifier must be one of FRONT, BACK, FACE (got "${cls.slice(0, 40)}")`);
    if (!allowed.includes(cls))
      throw bad(
        `classifier ${cls} is not a part of a ${cred.category} credential${allowed.length ? ` (allowed: ${allowed.join(', ')})` : ''}`,
      );
  };

  const uploadImage = async (c: C, op: 'C1' | 'C2') => {
    const cls = normClassifier(P(c, 'classifier'));
    const { e, cred } = await credentialPrelude(c, { credential: true, upload: true });
    imageClassifier(cred, cls);
    if (op === 'C1' && !cred.parts.has(cls))
      throw notFound(`There is no ${cls} part to update; add it with POST first`);
    const files = await readFiles(c, 'image');
    if (files.length !== 1) throw bad('Send exactly one file in the multipart field "file"');
    let info;
    try {
      info = inspectImage(files[0]);
      checkImageForPart(info, cred.category, op);
    } catch (err) {
      if (err instanceof UploadRuleError) throw bad(err.detail);
      throw err;
    }
    const part = engine.newPart(cls, files[0], info.contentType, info);
    const previous = cred.parts.get(cls);
    if (previous) part.id = previous.id;
    cred.parts.set(cls, part);
    engine.touchUpload(e, UPLOAD_EVENT[cls], `${cls.toLowerCase()}: upload`);
    return credOpResponse(c, e, cred, part.id);
  };

  const uploadPreparedData = async (c: C) => {
    const { e, cred } = await credentialPrelude(c, { credential: true, upload: true });
    if (cred.category !== 'DATA')
      throw bad(`PREPARED_DATA is a part of a DATA credential; credential ${cred.id} is ${cred.category}`);
    const ct = c.req.header('content-type') ?? '';
    if (ct && !/json/i.test(ct)) throw bad('Prepared data must be sent as JSON (Content-Type: application/json)');
    const body = await readJson(c);
    const data = parseOr400(preparedDataSchema, body, 'prepared data body');
    cred.preparedData = data;
    cred.preparedDataPartId ??= randomUUID();
    engine.touchUpload(e, UPLOAD_EVENT.PREPARED_DATA);
    return credOpResponse(c, e, cred, cred.preparedDataPartId, {});
  };

  const uploadDocument = async (c: C) => {
    const { e, cred } = await credentialPrelude(c, { credential: true, upload: true });
    if (cred.category !== 'DOCUMENT')
      throw bad(
        `DOCUMENT uploads go to a DOCUMENT credential (api.parts.document); credential ${cred.id} is ${cred.category}`,
      );
    const files = await readFiles(c, 'document');
    const kinds = files.map((f) => (isPdf(f) ? 'pdf' : 'image'));
    if (kinds.includes('pdf')) {
      if (files.length > 1 || cred.pages.length)
        throw bad('Document upload: a PDF must be the only file of the document (send images or one PDF)');
      const part = engine.newPart('DOCUMENT', files[0], 'application/pdf');
      cred.pages = [part];
      engine.touchUpload(e, UPLOAD_EVENT.DOCUMENT, 'document: upload');
      return credOpResponse(c, e, cred, part.id);
    }
    if (cred.pages.some((p) => p.contentType === 'application/pdf'))
      throw bad('Document upload: this document is already a PDF; images cannot be added to it');
    const parts = files.map((f) => {
      try {
        const info = inspectImage(f);
        checkImageForPart(info, 'DOCUMENT', 'C4');
        return engine.newPart('DOCUMENT', f, info.contentType, info);
      } catch (err) {
        if (err instanceof UploadRuleError)
          throw bad(
            err.detail.replace(
              /^Image file format: only JPEG and PNG images are accepted/,
              'Document file format: only JPEG, PNG or one PDF are accepted',
            ),
          );
        throw err;
      }
    });
    cred.pages.push(...parts);
    engine.touchUpload(e, UPLOAD_EVENT.DOCUMENT, 'document: upload');
    return credOpResponse(c, e, cred, parts.at(-1)!.id);
  };

  const forgetPartInResult = (e: ApiExecution) => {
    if (!e.built) return;
    for (const rc of e.built.result.credentials ?? []) {
      const cred = e.credentials.find((x) => x.id === rc.id);
      if (!cred) continue;
      rc.parts = [
        ...[...cred.parts.values()].map((p) => ({ classifier: p.classifier, captureType: 'UPLOAD' })),
        ...cred.pages.map(() => ({ classifier: 'DOCUMENT', captureType: 'UPLOAD' })),
        ...(cred.preparedData ? [{ classifier: 'PREPARED_DATA', captureType: 'API' }] : []),
      ];
    }
  };

  route('/api/v1/accounts/:a/workflow-executions/:w/credentials/:c/parts/:classifier', {
    POST: async (c) => {
      const cls = normClassifier(P(c, 'classifier'));
      if (cls === 'PREPARED_DATA') return uploadPreparedData(c);
      if (cls === 'DOCUMENT') return uploadDocument(c);
      return uploadImage(c, 'C2');
    },
    PUT: async (c) => {
      const cls = normClassifier(P(c, 'classifier'));
      if (cls === 'PREPARED_DATA' || cls === 'DOCUMENT')
        return problem(405, `PUT is not allowed on a ${cls} part; allowed: POST, DELETE`, { allow: 'POST, DELETE' });
      return uploadImage(c, 'C1');
    },
    // C6: delete one part
    DELETE: async (c) => {
      const cls = normClassifier(P(c, 'classifier'));
      const { e, cred } = await credentialPrelude(c, { credential: true, upload: false });
      let partId: string | undefined;
      if (cls === 'PREPARED_DATA') {
        if (!cred.preparedData) throw notFound('There is no PREPARED_DATA part on this credential');
        cred.preparedData = undefined;
        partId = cred.preparedDataPartId;
      } else if (cls === 'DOCUMENT') {
        if (!cred.pages.length) throw notFound('There is no DOCUMENT part on this credential');
        partId = cred.pages[0].id;
        cred.pages = [];
      } else {
        if (!['FRONT', 'BACK', 'FACE'].includes(cls))
          throw bad(`classifier must be one of FRONT, BACK, FACE, PREPARED_DATA, DOCUMENT (got "${cls.slice(0, 40)}")`);
        const p = cred.parts.get(cls);
        if (!p) throw notFound(`There is no ${cls} part on this credential`);
        partId = p.id;
        cred.parts.delete(cls);
      }
      forgetPartInResult(e);
      return credOpResponse(c, e, cred, partId);
    },
  });

  // C7: delete all parts of a credential
  route('/api/v1/accounts/:a/workflow-executions/:w/credentials/:c', {
    DELETE: async (c) => {
      const { e, cred } = await credentialPrelude(c, { credential: true, upload: false });
      cred.parts.clear();
      cred.pages = [];
      cred.preparedData = undefined;
      forgetPartInResult(e);
      return credOpResponse(c, e, cred);
    },
  });

  // =====================================================================
  // R*: retrieval (access token)
  const retrieval = async (c: C) => {
    limit(retrievalBucket);
    return access(c);
  };
  const execPrelude = async (c: C, withAccount = true) => {
    const a = withAccount ? uuidParam('accountId', P(c, 'a')) : undefined;
    const w = uuidParam('workflowExecutionId', P(c, 'w'));
    await retrieval(c);
    const ref = engine.findExecution(w);
    if (!ref || (a && engine.accountIdOf(ref) !== a))
      throw notFound(a ? `Workflow execution ${w} not found for account ${a}` : `Workflow execution ${w} not found`);
    return { ref, a: a ?? engine.accountIdOf(ref), w };
  };

  route('/api/v1/accounts/:a/workflow-executions/:w', {
    // R2
    GET: async (c) => {
      const { ref } = await execPrelude(c);
      return c.json(engine.view(ref).result);
    },
    // C5: finalize (transaction token)
    PUT: async (c) => {
      const { e } = await credentialPrelude(c, { credential: false, upload: false });
      if (e.status !== 'INITIATED')
        throw bad(
          `The workflow execution cannot be finalized: it is ${e.status}${e.status === 'ACQUIRED' || e.status === 'PROCESSED' ? ' (already finalized)' : ''}`,
        );
      const missing: string[] = [];
      for (const cr of e.credentials) {
        if (!cr.allowedChannels.includes('API')) continue;
        if (cr.category === 'ID' && !cr.parts.has('FRONT')) missing.push('ID (FRONT)');
        if (cr.category === 'SELFIE' && !cr.parts.has('FACE')) missing.push('SELFIE (FACE)');
        if (cr.category === 'DATA' && !cr.preparedData) missing.push('DATA (PREPARED_DATA)');
        if (cr.category === 'DOCUMENT' && !cr.pages.length) missing.push('DOCUMENT (DOCUMENT)');
      }
      if (missing.length) throw bad(`Cannot finalize: required credentials are missing: ${missing.join(', ')}`);
      engine.finalize(e);
      return c.json({ timestamp: now(), account: { id: e.accountId }, workflowExecution: { id: e.id } });
    },
    // R3: delete one execution
    DELETE: async (c) => {
      const { ref, a, w } = await execPrelude(c);
      engine.wipe(ref);
      return c.json({
        timestamp: now(),
        account: { id: a },
        workflowExecution: { id: w, wipedOutAt: engine.view(ref).result.wipedOutAt },
      });
    },
  });

  // R4: the execution by id alone (the form used in callback links)
  route('/api/v1/workflow-executions/:w', {
    GET: async (c) => {
      const { ref } = await execPrelude(c, false);
      return c.json(engine.view(ref).result);
    },
  });

  // R5
  route('/api/v1/accounts/:a/workflow-executions/:w/status', {
    GET: async (c) => {
      const { ref, a, w } = await execPrelude(c);
      const v = engine.view(ref);
      return c.json({
        account: { id: a, href: `${base()}/api/v1/accounts/${a}` },
        workflowExecution: { id: w, href: execUrl(a, w), definitionKey: v.definitionKey, status: v.status },
      });
    },
  });

  // R6: report link
  const sign = (w: string, exp: number) => createHmac('sha256', d.reportSecret).update(`${w}:${exp}`).digest('hex');
  route('/api/v1/accounts/:a/workflow-executions/:w/generate', {
    GET: async (c) => {
      const { ref, w } = await execPrelude(c);
      const v = engine.view(ref);
      if (v.status !== 'PROCESSED' || v.wiped)
        throw notFound('No report is available: the execution is not PROCESSED or its data was deleted');
      const exp = Math.floor(Date.now() / 1000) + 900;
      return c.json({
        workflowId: w,
        presignedUrl: `${base()}/reports/${w}.pdf?expires=${exp}&signature=${sign(w, exp)}`,
      });
    },
  });
  route('/reports/:file', {
    GET: async (c) => {
      const m = /^([0-9a-f-]{36})\.pdf$/i.exec(P(c, 'file'));
      if (!m) throw notFound('No such report');
      const w = m[1].toLowerCase();
      const exp = Number(c.req.query('expires'));
      const sig = c.req.query('signature') ?? '';
      if (!Number.isFinite(exp) || !safeEqual(sig, sign(w, exp))) throw forbidden('Invalid report signature');
      if (exp < Date.now() / 1000) throw forbidden('The report link has expired');
      const ref = engine.findExecution(w);
      if (!ref) throw notFound('No such report');
      const v = engine.view(ref);
      if (v.wiped) throw notFound('The report was deleted with the execution data');
      const r = v.result;
      const ex = r.capabilities?.extraction?.[0]?.data ?? {};
      const lines = [
        `Workflow execution: ${w}`,
        `Account: ${r.account?.id}`,
        `Definition key: ${r.workflow?.definitionKey}    Status: ${r.workflow?.status}`,
        `Created: ${r.createdAt}    Completed: ${r.completedAt ?? '-'}`,
        `Decision: ${r.decision?.type} (${r.decision?.details?.label})    Risk score: ${r.decision?.risk?.score}`,
        `Name: ${[ex.firstName, ex.lastName].filter(Boolean).join(' ') || '-'}    Date of birth: ${ex.dateOfBirth ?? '-'}`,
        `Document: ${ex.type ?? '-'} ${ex.issuingCountry ?? ''} ${ex.documentNumber ?? ''}`,
        '',
        'Capabilities:',
        ...Object.entries(r.capabilities ?? {}).map(
          ([k, list]) =>
            `  ${k}: ${(list as any[]).map((x) => `${x.decision.type}/${x.decision.details.label}`).join(', ')}`,
        ),
      ];
      return new Response(new Uint8Array(pdfReport('Identity verification report', lines)), {
        headers: { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${w}.pdf"` },
      });
    },
  });

  // R7, R8
  route('/api/v1/accounts/:a/workflow-executions/:w/steps', {
    GET: async (c) => {
      const { ref } = await execPrelude(c);
      const v = engine.view(ref);
      if (!v.steps) throw notFound('Steps are not available: the execution is not PROCESSED or its data was deleted');
      return c.json(v.steps);
    },
  });
  route('/api/v1/accounts/:a/workflow-executions/:w/rules', {
    GET: async (c) => {
      const { ref } = await execPrelude(c);
      const v = engine.view(ref);
      if (!v.rules)
        throw notFound('Rule executions are not available: the execution is not PROCESSED or its data was deleted');
      return c.json(v.rules);
    },
  });

  // R11: feedback
  route('/api/v1/accounts/:a/workflow-executions/:w/feedback', {
    PUT: async (c) => {
      const { ref, w } = await execPrelude(c);
      const body = await readJson(c);
      const fb = parseOr400(feedbackSchema, body, 'feedback body');
      const v = engine.view(ref);
      if (v.wiped) throw notFound('The execution data was deleted; feedback cannot be set');
      if (v.status !== 'PROCESSED')
        throw bad(`Feedback can be set only on a PROCESSED workflow execution; it is ${v.status}`);
      const feedback = engine.setFeedback(ref, fb);
      return c.json({ timestamp: now(), workflowExecution: { id: w }, feedback });
    },
  });

  // R1: part content
  route('/api/v1/accounts/:a/credentials/:c/parts/:classifier', {
    GET: async (c) => {
      const a = uuidParam('accountId', P(c, 'a'));
      const cid = uuidParam('credentialId', P(c, 'c'));
      const cls = normClassifier(P(c, 'classifier'));
      if (!['FRONT', 'BACK', 'FACE', 'DOCUMENT'].includes(cls))
        throw bad(`classifier must be one of FRONT, BACK, FACE (got "${cls.slice(0, 40)}")`);
      await retrieval(c);
      const p = engine.partContent(cid, cls);
      if (!p || p.accountId !== a)
        throw notFound(`No ${cls} part for credential ${cid} (it does not exist or was deleted)`);
      return new Response(new Uint8Array(p.bytes), {
        headers: {
          'content-type': p.contentType,
          'content-length': String(p.bytes.length),
          'cache-control': 'private, max-age=300',
        },
      });
    },
  });

  // R12: list, newest first
  const intParam = (name: string, raw: string | undefined, def: number, min: number, max: number) => {
    if (raw === undefined) return def;
    if (!/^\d+$/.test(raw))
      throw bad(
        `${name} must be an integer ${max === Infinity ? `>= ${min}` : `${min}..${max}`} (got "${raw.slice(0, 20)}")`,
      );
    const n = Number(raw);
    if (!Number.isSafeInteger(n) && max === Infinity) throw bad(`${name} is too large (got ${raw.slice(0, 20)})`);
    if (n < min || n > max)
      throw bad(`${name} must be ${max === Infinity ? `>= ${min}` : `${min}..${max}`} (got ${raw.slice(0, 20)})`);
    return n;
  };
  route('/api/v1/workflow-executions', {
    GET: async (c) => {
      const size = intParam('size', c.req.query('size'), 50, 1, 100);
      const page = intParam('page', c.req.query('page'), 1, 1, Infinity);
      await retrieval(c);
      return c.json({ workflowExecutions: engine.list(page, size) });
    },
  });

  // Web channel placeholder (account response web.href)
  route('/web/:w', {
    GET: (c) =>
      c.html(
        `<!doctype html><meta charset="utf-8"><title>Identity verification</title><body style="font-family:sans-serif;max-width:40em;margin:3em auto"><h1>Identity verification</h1><p>This is the simulator's stand-in for the web capture client of workflow execution <code>${P(c, 'w').replace(/[^0-9a-f-]/gi, '')}</code>. Upload credentials through the API channel instead.</p></body>`,
      ),
  });

  // =====================================================================
  // /__sim: test tools (client credentials as HTTP Basic)
  const faultSchema = z.strictObject(
    {
      latencyMs: z.number().int().min(0).max(60_000).optional(),
      errorRate: z.number().min(0).max(1).optional(),
      burst429: z.number().int().min(0).max(1_000_000).optional(),
      tokenLifetimeSec: z
        .number()
        .int()
        .min(1)
        .max(86400 * 60)
        .nullable()
        .optional(),
      dropCallbacks: z.number().min(0).max(1).optional(),
      duplicateCallbacks: z.boolean().optional(),
      stallProcessing: z.boolean().optional(),
    },
    { error: 'the body must be a JSON object of fault knobs' },
  );
  route('/__sim/faults', {
    GET: (c) => {
      requireBasic(c);
      return c.json(d.faults);
    },
    PUT: async (c) => {
      requireBasic(c);
      const patch = parseOr400(faultSchema, await readJson(c), 'fault knobs');
      Object.assign(d.faults, patch);
      return c.json(d.faults);
    },
  });
  route('/__sim/reset', {
    POST: (c) => {
      requireBasic(c);
      resetAll();
      return c.json({ reset: true });
    },
  });
  route('/__sim/callbacks', {
    GET: (c) => {
      requireBasic(c);
      return c.json({ attempts: d.callbacks.list() });
    },
  });
  route('/__sim/stats', {
    GET: (c) => {
      requireBasic(c);
      return c.json({
        ...d.stats,
        apiExecutions: engine.executions.size,
        apiAccounts: engine.accounts.size,
        callbacksPending: d.callbacks.pendingCount(),
      });
    },
  });
  route('/__sim/sweep', {
    POST: (c) => {
      requireBasic(c);
      engine.sweep();
      return c.json({ swept: true });
    },
  });

  const resetAll = () => {
    engine.reset();
    d.callbacks.reset();
    tokens.reset();
    resetLimits();
    Object.assign(d.faults, DEFAULT_FAULTS);
  };

  return { app, resetAll };
}

export { unauthorized };
