import { problem } from '@/lib/http/problem';
/**
 * The callback receiver behind `POST /api/idv/callback`, as a plain function of a Request so
 * that it is tested with real requests without a running console.
 *
 * The service documents no signature (service-facts): the endpoint is protected by a secret in
 * the URL (`?token=`) or a bearer header, compared in constant time, and optionally by a
 * source-IP allowlist. The body is never trusted for data: it only names the execution to
 * fetch again.
 *
 * Storm speed: after the checks (all in memory) the hot path does one durable write, the
 * callback's row (group-committed with the callbacks that arrived meanwhile), and answers 200
 * once it is committed; nothing acknowledged is lost. The work
 * behind it (dedupe, the stale mark, the fetch job, the status check of executions the cache
 * does not hold) is done in batches by the workers (callback-inbox.ts). A service retrying
 * everything after an outage therefore meets one insert per callback, not a status call and a
 * transaction each.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Db } from '@/lib/db/client';
import { callbacks } from '@/lib/db/schema';
import type { IpAllowlist } from '@/lib/ip-allowlist';
import { parseCallbackHref } from '@/lib/idv/links';
import { CallbackBodySchema } from '@/lib/idv/schemas';
import { clientIpFrom } from '@/lib/edge/client-address';

export interface CallbackSettings {
  /** IDV_CALLBACK_SECRET. Without one every callback is refused: an open endpoint would let anyone trigger fetches. */
  secret: string | undefined;
  allowlist: IpAllowlist | null;
  maxBytes: number;
}

export interface CallbackDeps {
  db: Db;
  settings: CallbackSettings;
  log?: (line: string) => void;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Constant-time comparison that also hides the secret's length (both sides are hashed first). */
export function secretMatches(given: string, secret: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(secret, 'utf8').digest();
  return timingSafeEqual(a, b);
}

function presentedSecret(request: Request): string | null {
  const token = new URL(request.url).searchParams.get('token');
  if (token !== null) return token;
  const auth = request.headers.get('authorization');
  const m = auth ? /^Bearer\s+(.+)$/i.exec(auth.trim()) : null;
  return m ? m[1] : null;
}

/** The body, or null once it exceeds `max` bytes (without reading the rest). */
async function readCapped(request: Request, max: number): Promise<Uint8Array | null> {
  const declared = Number(request.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > max) return null;
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

type CallbackRow = typeof callbacks.$inferInsert;
type Waiting = { row: CallbackRow; done: (r: { id: number } | Error) => void };

/**
 * Group commit of the callbacks' rows, one writer per database handle. A callback that arrives
 * while no write is in flight is written at once, alone; those that arrive while one is in
 * flight wait for it and are then written together, in one INSERT and one commit (no timer, so
 * a quiet receiver adds no delay). In a storm the commits, and the database's WAL flushes, grow
 * far slower than the callbacks. Each callback is answered only after its own batch committed; a
 * failed batch answers every callback in it 503, and the service sends them again.
 */
class CallbackWriter {
  private readonly waiting: Waiting[] = [];
  private flushing = false;

  constructor(
    private readonly db: Db,
    private readonly maxBatch = 500,
  ) {}

  write(row: CallbackRow): Promise<{ id: number }> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ row, done: (r) => (r instanceof Error ? reject(r) : resolve(r)) });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush() {
    this.flushing = true;
    while (this.waiting.length) {
      const batch = this.waiting.splice(0, this.maxBatch);
      try {
        // Postgres returns the rows of a multi-row INSERT … RETURNING in the order of its VALUES;
        // the ids only go back in the answers, for the sender's logs.
        const ids = await this.db
          .insert(callbacks)
          .values(batch.map((w) => w.row))
          .returning({ id: callbacks.id });
        batch.forEach((w, i) => w.done(ids[i]));
      } catch (err) {
        const e = err instanceof Error ? err : new Error(String(err));
        for (const w of batch) w.done(e);
      }
    }
    this.flushing = false;
  }
}

const writers = new WeakMap<Db, CallbackWriter>();
function writerFor(db: Db): CallbackWriter {
  let w = writers.get(db);
  if (!w) writers.set(db, (w = new CallbackWriter(db)));
  return w;
}

export async function handleCallback(request: Request, deps: CallbackDeps): Promise<Response> {
  const { settings } = deps;
  const sourceIp = clientIpFrom(request.headers);
  if (settings.allowlist && !settings.allowlist.allows(sourceIp)) {
    deps.log?.(`callback refused: source ${sourceIp ?? 'unknown'} is not in CALLBACK_IP_ALLOWLIST`);
    return problem(403, 'Forbidden', 'This source address may not send callbacks.');
  }
  if (!settings.secret)
    return problem(503, 'Service Unavailable', 'Callbacks are not configured: set IDV_CALLBACK_SECRET.');
  const given = presentedSecret(request);
  if (given === null)
    return problem(401, 'Unauthorized', 'The callback secret is missing: add ?token=<secret> to the callback URL.', {
      'www-authenticate': 'Bearer',
    });
  if (!secretMatches(given, settings.secret))
    return problem(401, 'Unauthorized', 'The callback secret is wrong.', { 'www-authenticate': 'Bearer' });

  const bytes = await readCapped(request, settings.maxBytes);
  if (bytes === null)
    return problem(413, 'Payload Too Large', `A callback body may have at most ${settings.maxBytes} bytes.`);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return problem(400, 'Bad Request', 'The body is not valid JSON.');
  }
  const parsed = CallbackBodySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return problem(
      422,
      'Unprocessable Entity',
      `Not a callback: ${issue.path.join('.') || '(root)'} ${issue.message}.`,
    );
  }
  const body = parsed.data;
  const executionId = body.workflowExecution.id.toLowerCase();
  const accountId = body.account.id.toLowerCase();
  if (!UUID.test(executionId) || !UUID.test(accountId))
    return problem(422, 'Unprocessable Entity', 'workflowExecution.id and account.id must be UUIDs.');
  // Both link forms are accepted (with and without the account segment); they must name the same ids.
  if (body.workflowExecution.href) {
    let ids: ReturnType<typeof parseCallbackHref>;
    try {
      ids = parseCallbackHref(body.workflowExecution.href);
    } catch {
      return problem(422, 'Unprocessable Entity', 'workflowExecution.href does not name a workflow execution.');
    }
    if (
      ids.workflowExecutionId.toLowerCase() !== executionId ||
      (ids.accountId && ids.accountId.toLowerCase() !== accountId)
    ) {
      return problem(
        422,
        'Unprocessable Entity',
        'workflowExecution.href names another execution or account than the body.',
      );
    }
  }

  const sentAt = body.callbackSentAt ? new Date(body.callbackSentAt) : null;
  let stored: { id: number };
  try {
    stored = await writerFor(deps.db).write({
      executionId,
      accountId,
      status: body.workflowExecution.status ?? null,
      callbackSentAt: sentAt && !Number.isNaN(sentAt.getTime()) ? sentAt : null,
      sourceIp,
      body: json as Record<string, unknown>,
    });
  } catch (err) {
    deps.log?.(`callback not stored: the database is unavailable (${err instanceof Error ? err.name : 'error'})`);
    return problem(503, 'Service Unavailable', 'The callback could not be stored; send it again later.', {
      'retry-after': '30',
    });
  }
  return Response.json({ received: true, id: stored.id }, { status: 200, headers: { 'cache-control': 'no-store' } });
}
