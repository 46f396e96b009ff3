import 'server-only';
/**
 * Typed operations of the identity-verification service (spec ids T, A1-A2, C1-C7, R1-R12).
 *
 * Concern -> base URL: token -> authUrl, A* -> accountUrl, C* -> apiUrl (but the absolute URLs
 * the service issues in `api.parts` / `api.workflowExecution` are preferred), R* and health ->
 * retrievalUrl. Each concern has its own rate limiter. URLs are never built from `steps.href`
 * (it carries a documented `accounts/accounts/` typo).
 */
import { type IdvConfig } from './config';
import { IdvParseError, IdvValidationError } from './errors';
import {
  decodeJson,
  HttpClient,
  withoutUndefined,
  type FetchLike,
  type HttpMethod,
  type RetryPolicy,
  type Auth,
} from './http';
import { credentialUrlOf, idvPaths } from './links';
import { RateLimiter } from './rate-limit';
import { sharedLimitKey, type SlotStore } from './shared-rate-limit';
import {
  AccountDetailsSchema,
  AccountRequestSchema,
  AccountResponseSchema,
  CredentialOperationResponseSchema,
  FeedbackRequestSchema,
  HealthResponseSchema,
  ListQuerySchema,
  ListEnvelopeSchema,
  markParsed,
  parseOrThrow,
  PreparedDataSchema,
  ReportResponseSchema,
  RuleExecutionsResponseSchema,
  StatusResponseSchema,
  StepsResponseSchema,
  WorkflowExecutionResultSchema,
  type AccountDetails,
  type AccountRequest,
  type AccountResponse,
  type CredentialOperationResponse,
  type FeedbackRequest,
  type HealthResponse,
  type ListQuery,
  type PreparedData,
  type ReportResponse,
  type RuleExecutionsResponse,
  type StatusResponse,
  type StepsResponse,
  type WorkflowExecutionResult,
} from './schemas';
import { TokenManager } from './tokens';
import type { z } from 'zod';

export interface IdvClientDeps {
  fetch?: FetchLike;
  /** Used for backoff and by the rate limiters; an injected `sleep` must advance an injected `now`. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  random?: () => number;
  /** Overrides of the retry policy (tests use tiny delays). `maxRetries` defaults to the config's. */
  retry?: Partial<RetryPolicy>;
  /** Default 300 s (never more than half a token's lifetime). */
  refreshMarginSec?: number;
  /**
   * Where the customer's rate limits are held for all processes together (shared-rate-limit.ts).
   * Without it each process keeps its own limits (tests, tools).
   */
  sharedLimits?: SlotStore;
  /** Told when the shared limits cannot be reached and the process's own limiter stands in. */
  onSharedLimitError?: (err: unknown) => void;
}

/** Where a credential operation goes: the URL the service issued, or the ids to build it from. */
export type CredentialTarget = string | { accountId: string; workflowExecutionId: string; credentialId: string };
/** Where finalize goes: `api.workflowExecution`, or the ids. */
export type ExecutionTarget = string | { accountId: string; workflowExecutionId: string };
export type FileBytes = Uint8Array | ArrayBuffer | Blob;
/** C1 and C2: the credential's transaction token, the part, its bytes and their type. */
type PartArgs = [
  apiToken: string,
  target: CredentialTarget,
  classifier: string,
  file: FileBytes,
  contentType: string,
  opts?: CallOptions,
];

/** R12 page: the usable records, plus the ones left out and why. Other envelope members are kept. */
export type ListExecutionsResult = {
  workflowExecutions: WorkflowExecutionResult[];
  skipped: Array<{ index: number; error: IdvParseError; raw: unknown }>;
  [key: string]: unknown;
};

export interface PartContent {
  bytes: Uint8Array;
  contentType: string;
}

/** Common per-call options. */
export interface CallOptions {
  /** Cancels the call (and its retries), e.g. when the page request went away. */
  signal?: AbortSignal;
}

// Spec "Limits": images JPEG or PNG, at most 15 MB; documents (C4) JPEG, PNG or PDF.
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png']);
const DOCUMENT_TYPES = new Set(['image/jpeg', 'image/png', 'application/pdf']);
const MAX_UPLOAD_BYTES = 15 * 1024 * 1024;
const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'application/pdf': 'pdf' };

type Concern = 'account' | 'api' | 'retrieval';

export class IdvClient {
  readonly config: IdvConfig;
  readonly http: HttpClient;
  readonly tokens: TokenManager;
  readonly limiters: Record<Concern | 'token', RateLimiter>;

  constructor(config: IdvConfig, deps: IdvClientDeps = {}) {
    // Readable, but not enumerable: logging or serialising the client does not print the secret.
    this.config = Object.defineProperty({ ...config }, 'clientSecret', {
      value: config.clientSecret,
      enumerable: false,
    });
    this.http = new HttpClient({
      userAgent: config.userAgent,
      timeoutMs: config.timeoutMs,
      allowInsecure: config.allowInsecure,
      retry: { maxRetries: config.maxRetries, ...withoutUndefined(deps.retry) },
      deps: { fetch: deps.fetch, sleep: deps.sleep, now: deps.now, random: deps.random },
    });
    const clock = { now: this.http.deps.now, sleep: this.http.deps.sleep };
    const shared = (concern: Concern | 'token') =>
      deps.sharedLimits
        ? {
            shared: {
              store: deps.sharedLimits,
              key: sharedLimitKey(concern, config.clientId),
              onError: deps.onSharedLimitError,
            },
          }
        : {};
    this.limiters = {
      token: new RateLimiter({
        ratePerSec: config.tokenRatePerSec,
        burst: config.tokenBurst,
        ...clock,
        ...shared('token'),
      }),
      account: new RateLimiter({
        ratePerSec: config.accountRatePerSec,
        burst: config.accountBurst,
        ...clock,
        ...shared('account'),
      }),
      api: new RateLimiter({ ratePerSec: config.apiRatePerSec, burst: config.apiBurst, ...clock, ...shared('api') }),
      retrieval: new RateLimiter({
        ratePerSec: config.retrievalRatePerSec,
        burst: config.retrievalBurst,
        ...clock,
        ...shared('retrieval'),
      }),
    };
    this.tokens = new TokenManager({
      authUrl: config.authUrl,
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      http: this.http,
      limiter: this.limiters.token,
      refreshMarginSec: deps.refreshMarginSec,
    });
    this.http.setTokenSource(this.tokens);
  }

  // ------------------------------------------------------------------------------------ T

  /** T: the OAuth access token (cached, shared, refreshed before expiry). */
  getToken(): Promise<string> {
    return this.tokens.getToken();
  }

  // ------------------------------------------------------------------------------- A1, A2

  /** A1 POST /accounts. The body is checked strictly before sending. Not retried once it may have been received (see http.ts). */
  async createAccount(body: AccountRequest, opts?: CallOptions): Promise<AccountResponse> {
    const valid = validate(AccountRequestSchema, body, 'A1 createAccount');
    const json = await this.call('A1 createAccount', 'account', 'POST', this.config.accountUrl + idvPaths.accounts(), {
      json: valid,
      ...opts,
    });
    return parseOrThrow(AccountResponseSchema, json, 'A1 account response', 'A1 createAccount');
  }

  /** A2 PUT /accounts/{a}: a new workflow execution for an existing account. */
  async updateAccount(accountId: string, body: AccountRequest, opts?: CallOptions): Promise<AccountResponse> {
    const valid = validate(AccountRequestSchema, body, 'A2 updateAccount');
    const json = await this.call(
      'A2 updateAccount',
      'account',
      'PUT',
      this.config.accountUrl + idvPaths.account(accountId),
      {
        json: valid,
        ...opts,
      },
    );
    return parseOrThrow(AccountResponseSchema, json, 'A2 account response', 'A2 updateAccount');
  }

  // ------------------------------------------------------------------------------ C1 - C7

  /**
   * C2 POST a part (multipart field `file`) with the credential's transaction token `api.token`.
   * `target` is the part URL from `api.parts` (used as is) or the ids (then `classifier` names the part).
   */
  addPart(...args: PartArgs) {
    return this.sendPart('C2 addPart', 'POST', args);
  }

  /** C1 PUT a part (replaces it). Same arguments as `addPart`. */
  updatePart(...args: PartArgs) {
    return this.sendPart('C1 updatePart', 'PUT', args);
  }

  private sendPart(
    operation: string,
    method: 'POST' | 'PUT',
    [apiToken, target, classifier, file, contentType, opts]: PartArgs,
  ) {
    const url = this.partUrl(target, classifier);
    return this.uploadFile(operation, method, apiToken, url, classifier, file, contentType, IMAGE_TYPES, opts);
  }

  /** C3 POST .../parts/PREPARED_DATA (JSON) to the `api.parts.prepared_data` URL or the ids. */
  async uploadPreparedData(
    apiToken: string,
    target: CredentialTarget,
    data: PreparedData,
    opts?: CallOptions,
  ): Promise<CredentialOperationResponse> {
    const valid = validate(PreparedDataSchema, data, 'C3 uploadPreparedData');
    const json = await this.call('C3 uploadPreparedData', 'api', 'POST', this.partUrl(target, 'PREPARED_DATA'), {
      auth: { kind: 'bearer', token: apiToken },
      json: valid,
      ...opts,
    });
    return parseCredentialOp(json, 'C3 uploadPreparedData');
  }

  /**
   * C4 POST a document (JPEG, PNG or PDF; multipart `file`) to the `api.parts.document` URL.
   * From ids the URL is `.../credentials/{c}/parts/DOCUMENT` (not public; our choice).
   */
  uploadDocument(apiToken: string, target: CredentialTarget, file: FileBytes, contentType: string, opts?: CallOptions) {
    return this.uploadFile(
      'C4 uploadDocument',
      'POST',
      apiToken,
      this.partUrl(target, 'DOCUMENT'),
      'document',
      file,
      contentType,
      DOCUMENT_TYPES,
      opts,
    );
  }

  /** C5 PUT the workflow execution (no body) with the transaction token: starts processing. */
  async finalize(apiToken: string, target: ExecutionTarget, opts?: CallOptions): Promise<CredentialOperationResponse> {
    const url =
      typeof target === 'string'
        ? target
        : this.config.apiUrl + idvPaths.execution(target.accountId, target.workflowExecutionId);
    const json = await this.call('C5 finalize', 'api', 'PUT', url, {
      auth: { kind: 'bearer', token: apiToken },
      ...opts,
    });
    return parseCredentialOp(json, 'C5 finalize');
  }

  /** C6 DELETE one part (irreversible). `target`: the part URL or the ids. */
  async deletePart(
    apiToken: string,
    target: CredentialTarget,
    classifier: string,
    opts?: CallOptions,
  ): Promise<CredentialOperationResponse> {
    const json = await this.call('C6 deletePart', 'api', 'DELETE', this.partUrl(target, classifier), {
      auth: { kind: 'bearer', token: apiToken },
      ...opts,
    });
    return parseCredentialOp(json, 'C6 deletePart');
  }

  /** C7 DELETE all pages of a credential (irreversible). `target`: the credential URL, a part URL of it, or the ids. */
  async deleteCredential(
    apiToken: string,
    target: CredentialTarget,
    opts?: CallOptions,
  ): Promise<CredentialOperationResponse> {
    const url =
      typeof target === 'string'
        ? credentialUrlOf(target)
        : this.config.apiUrl + idvPaths.credential(target.accountId, target.workflowExecutionId, target.credentialId);
    const json = await this.call('C7 deleteCredential', 'api', 'DELETE', url, {
      auth: { kind: 'bearer', token: apiToken },
      ...opts,
    });
    return parseCredentialOp(json, 'C7 deleteCredential');
  }

  // ------------------------------------------------------------------------------ R1 - R12

  /** R1 GET /accounts/{a}/credentials/{c}/parts/{classifier}: the image bytes (404 when missing or deleted). */
  async getPart(accountId: string, credentialId: string, classifier: string, opts?: CallOptions): Promise<PartContent> {
    const res = await this.http.send({
      operation: 'R1 getPart',
      method: 'GET',
      url: this.config.retrievalUrl + idvPaths.retrievalPart(accountId, credentialId, classifier),
      auth: { kind: 'oauth' },
      limiter: this.limiters.retrieval,
      signal: opts?.signal,
    });
    return { bytes: res.bytes, contentType: res.contentType.split(';')[0].trim() || 'application/octet-stream' };
  }

  /** R2 GET /accounts/{a}/workflow-executions/{w}: the result. */
  async getExecution(
    accountId: string,
    workflowExecutionId: string,
    opts?: CallOptions,
  ): Promise<WorkflowExecutionResult> {
    const json = await this.retrieve('R2 getExecution', idvPaths.execution(accountId, workflowExecutionId), opts);
    return parseOrThrow(WorkflowExecutionResultSchema, json, 'R2 workflow execution result', 'R2 getExecution');
  }

  /** R3 DELETE /accounts/{a}/workflow-executions/{w}: deletes one execution's data at the service. */
  async deleteExecution(accountId: string, workflowExecutionId: string, opts?: CallOptions): Promise<void> {
    await this.call(
      'R3 deleteExecution',
      'retrieval',
      'DELETE',
      this.config.retrievalUrl + idvPaths.execution(accountId, workflowExecutionId),
      opts,
    );
  }

  /** R4 GET /workflow-executions/{w}: the result by execution id alone (the link form of real callbacks). */
  async getExecutionById(workflowExecutionId: string, opts?: CallOptions): Promise<WorkflowExecutionResult> {
    const json = await this.retrieve('R4 getExecutionById', idvPaths.executionById(workflowExecutionId), opts);
    return parseOrThrow(WorkflowExecutionResultSchema, json, 'R4 workflow execution result', 'R4 getExecutionById');
  }

  /** R5 GET .../status */
  async getStatus(accountId: string, workflowExecutionId: string, opts?: CallOptions): Promise<StatusResponse> {
    const json = await this.retrieve('R5 getStatus', idvPaths.status(accountId, workflowExecutionId), opts);
    return parseOrThrow(StatusResponseSchema, json, 'R5 status', 'R5 getStatus');
  }

  /** R6 GET .../generate: `{workflowId, presignedUrl}` (a PDF report link). */
  async generateReport(accountId: string, workflowExecutionId: string, opts?: CallOptions): Promise<ReportResponse> {
    const json = await this.retrieve('R6 generateReport', idvPaths.generate(accountId, workflowExecutionId), opts);
    return parseOrThrow(ReportResponseSchema, json, 'R6 report', 'R6 generateReport');
  }

  /** R7 GET .../steps (404 when not available or deleted). */
  async getSteps(accountId: string, workflowExecutionId: string, opts?: CallOptions): Promise<StepsResponse> {
    const json = await this.retrieve('R7 getSteps', idvPaths.steps(accountId, workflowExecutionId), opts);
    return parseOrThrow(StepsResponseSchema, json ?? {}, 'R7 steps', 'R7 getSteps');
  }

  /** R8 GET .../rules */
  async getRules(accountId: string, workflowExecutionId: string, opts?: CallOptions): Promise<RuleExecutionsResponse> {
    const json = await this.retrieve('R8 getRules', idvPaths.rules(accountId, workflowExecutionId), opts);
    return parseOrThrow(RuleExecutionsResponseSchema, json ?? {}, 'R8 rule executions', 'R8 getRules');
  }

  /** R9 GET /accounts/{a} (shape not public; kept whole). */
  async getAccount(accountId: string, opts?: CallOptions): Promise<AccountDetails> {
    const json = await this.retrieve('R9 getAccount', idvPaths.account(accountId), opts);
    return parseOrThrow(AccountDetailsSchema, json ?? {}, 'R9 account', 'R9 getAccount');
  }

  /** R10 DELETE /accounts/{a}: deletes the account and all its executions at the service. */
  async deleteAccount(accountId: string, opts?: CallOptions): Promise<void> {
    await this.call(
      'R10 deleteAccount',
      'retrieval',
      'DELETE',
      this.config.retrievalUrl + idvPaths.account(accountId),
      opts,
    );
  }

  /** R11 PUT .../feedback `{status, reason?}`. FRAUD without a real reason is refused before sending. */
  async setFeedback(
    accountId: string,
    workflowExecutionId: string,
    feedback: FeedbackRequest,
    opts?: CallOptions,
  ): Promise<void> {
    const valid = validate(FeedbackRequestSchema, feedback, 'R11 setFeedback');
    await this.call(
      'R11 setFeedback',
      'retrieval',
      'PUT',
      this.config.retrievalUrl + idvPaths.feedback(accountId, workflowExecutionId),
      {
        json: valid,
        ...opts,
      },
    );
  }

  /**
   * R12 GET /workflow-executions?page=&size= (page >= 1, size 1..100; newest first).
   * A record without a usable `workflow.id` / `account.id` cannot be stored, but must not block
   * the rest of the page: it is left out of `workflowExecutions` and reported in `skipped`
   * (index and an IdvParseError naming the field). A body that is not a list fails as a whole.
   */
  async listExecutions(query: ListQuery = {}, opts?: CallOptions): Promise<ListExecutionsResult> {
    const q = validate(ListQuerySchema, query, 'R12 listExecutions');
    const json = await this.retrieve(
      'R12 listExecutions',
      `${idvPaths.executions()}?page=${q.page}&size=${q.size}`,
      opts,
    );
    const envelope = parseOrThrow(ListEnvelopeSchema, json ?? {}, 'R12 workflow execution list', 'R12 listExecutions');
    const workflowExecutions: WorkflowExecutionResult[] = [];
    const skipped: ListExecutionsResult['skipped'] = [];
    envelope.workflowExecutions.forEach((item, index) => {
      const r = WorkflowExecutionResultSchema.safeParse(item);
      if (r.success) workflowExecutions.push(markParsed(WorkflowExecutionResultSchema, r.data));
      else {
        const issues = r.error.issues.map((i) => ({ ...i, path: ['workflowExecutions', index, ...i.path] }));
        skipped.push({
          index,
          error: new IdvParseError('R12 workflow execution list', issues, 'R12 listExecutions', { cause: r.error }),
          raw: item,
        });
      }
    });
    return { ...envelope, workflowExecutions, skipped };
  }

  /**
   * GET / on the retrieval (status) host: `{status: UP|DEGRADED|DOWN, details}`. A probe: no
   * retries, no token, and a 503 that carries the body is an answer (DOWN), not an error.
   */
  async health(opts?: CallOptions): Promise<HealthResponse> {
    const res = await this.http.send({
      operation: 'health',
      method: 'GET',
      url: `${this.config.retrievalUrl}/`,
      auth: { kind: 'none' },
      limiter: this.limiters.retrieval,
      maxRetries: 0,
      acceptStatus: (s) => s === 503,
      signal: opts?.signal,
    });
    return parseOrThrow(HealthResponseSchema, decodeJson(res, 'health') ?? {}, 'health response', 'health');
  }

  // --------------------------------------------------------------------------------- internals

  private retrieve(operation: string, path: string, opts?: CallOptions): Promise<unknown> {
    return this.call(operation, 'retrieval', 'GET', this.config.retrievalUrl + path, opts);
  }

  private async call(
    operation: string,
    concern: Concern,
    method: HttpMethod,
    url: string,
    opts: CallOptions & { auth?: Auth; json?: unknown; body?: () => BodyInit } = {},
  ): Promise<unknown> {
    const res = await this.http.send({
      operation,
      method,
      url,
      auth: opts.auth ?? { kind: 'oauth' },
      json: opts.json,
      body: opts.body,
      limiter: this.limiters[concern],
      signal: opts.signal,
    });
    return decodeJson(res, operation);
  }

  private partUrl(target: CredentialTarget, classifier: string): string {
    if (typeof target === 'string') return target;
    return (
      this.config.apiUrl + idvPaths.part(target.accountId, target.workflowExecutionId, target.credentialId, classifier)
    );
  }

  private async uploadFile(
    operation: string,
    method: 'POST' | 'PUT',
    apiToken: string,
    url: string,
    name: string,
    file: FileBytes,
    contentType: string,
    allowed: Set<string>,
    opts?: CallOptions,
  ): Promise<CredentialOperationResponse> {
    const type = contentType.split(';')[0].trim().toLowerCase();
    const blob =
      file instanceof Blob
        ? file.type === type
          ? file
          : new Blob([file], { type })
        : new Blob([toArrayBuffer(file)], { type });
    const problems: z.core.$ZodIssue[] = [];
    if (!allowed.has(type)) {
      problems.push({
        code: 'custom',
        path: ['contentType'],
        message: `must be one of ${[...allowed].join(', ')}`,
        input: contentType,
      });
    }
    if (blob.size === 0 || blob.size > MAX_UPLOAD_BYTES) {
      problems.push({
        code: 'custom',
        path: ['file'],
        message: `size must be 1 byte to 15 MB (got ${blob.size})`,
        input: blob.size,
      });
    }
    if (problems.length) throw new IdvValidationError(operation, problems);
    const filename = `${name.toLowerCase()}.${EXTENSIONS[type] ?? 'bin'}`;
    const json = await this.call(operation, 'api', method, url, {
      auth: { kind: 'bearer', token: apiToken },
      body: () => {
        const form = new FormData();
        form.append('file', blob, filename);
        return form;
      },
      ...opts,
    });
    return parseCredentialOp(json, operation);
  }
}

function validate<T extends z.ZodType>(schema: T, value: unknown, operation: string): z.output<T> {
  const r = schema.safeParse(value);
  if (!r.success) throw new IdvValidationError(operation, r.error.issues);
  return r.data;
}

function parseCredentialOp(json: unknown, operation: string): CredentialOperationResponse {
  return parseOrThrow(CredentialOperationResponseSchema, json ?? {}, `${operation} response`, operation);
}

function toArrayBuffer(file: Uint8Array | ArrayBuffer): ArrayBuffer {
  if (file instanceof ArrayBuffer) return file;
  return file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer;
}
