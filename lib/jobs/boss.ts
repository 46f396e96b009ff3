import 'server-only';
import PgBoss from 'pg-boss';
import type { Tx } from '@/lib/db/client';
import { logFor } from '@/lib/log';
import { onShutdown } from '@/lib/db/shutdown';
import { metrics, secondsSince } from '@/lib/telemetry/metrics';
import { currentTraceparent, linkTo, SpanKind, withSpan } from '@/lib/telemetry/tracing';

/**
 * The one job queue of Verdict (pg-boss on the same Postgres as the cache). Console processes
 * only send jobs; workers (inside `npm start`, or `npm run worker`) also process them.
 */
export const QUEUES = {
  /** Fetch R2 + R7 + R8 of one execution and ingest it. Data: FetchJob (lib/sync/jobs.ts). */
  fetchExecution: 'sync.fetch-execution',
  /** Page through R12 (backfill, reconciliation or poll run). Data: { runId } */
  backfill: 'sync.backfill',
  /** Periodic poll of the newest R12 pages. */
  poll: 'sync.poll',
  /** Periodic full reconciliation (a schedule needs a queue of its own). */
  reconcile: 'sync.reconcile',
  /** Purge personal data past the retention setting. */
  retention: 'sync.retention',
  /** Deliver one feedback to the service (R11). Data: { feedbackId } */
  deliverFeedback: 'feedback.deliver',
  /** Sign the audit chain's head (lib/evidence/checkpoint.ts). */
  auditCheckpoint: 'audit.checkpoint',
  /** Verify the whole audit chain and record the result for the audit page. */
  auditVerify: 'audit.verify',
  /** Send one outgoing webhook (lib/webhooks/deliver.ts). Data: { deliveryId } */
  deliverWebhook: 'webhooks.deliver',
  /** Announce new spike alerts and sync incidents as webhooks (lib/sync/watch.ts), every minute. */
  webhookWatch: 'webhooks.watch',
  /** Re-match unresolved executions to queues after a queue changed. Data: { runId } (lib/cases/rematch.ts) */
  rematchCases: 'cases.rematch',
  /** Every minute: claims untouched for CASE_CLAIM_MINUTES return to their queue. */
  releaseClaims: 'cases.release',
  /** Sample one week's resolved cases for QA. Data: { runId } (lib/qa/sample.ts) */
  qaSample: 'qa.sample',
  /** Mondays: sample the week that just ended, when sampling is on. */
  qaWeekly: 'qa.weekly',
  /** Every minute: refused calls of unknown callers, counted per address, into one audit entry each (lib/auth/denied-calls.ts). */
  flushDeniedCalls: 'auth.flush-denied-calls',
  /** Every minute: claims about to lapse and cases nearing their SLA, told once (lib/cases/reminders.ts). */
  caseReminders: 'cases.reminders',
  /** Mail one notification. Data: { notificationId } (lib/notifications/email.ts) */
  notificationEmail: 'notifications.email',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/**
 * `short`: at most one queued (not yet started) job per singleton key, so duplicate callbacks
 * queue one fetch. Runs are long: a lease in sync_runs, not the job's expiry, decides who runs
 * them (lib/sync/runs.ts).
 */
const QUEUE_OPTIONS: Partial<Record<QueueName, Omit<PgBoss.Queue, 'name'>>> = {
  [QUEUES.fetchExecution]: { policy: 'short', retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 300 },
  [QUEUES.backfill]: { policy: 'short', retryLimit: 1, retryDelay: 30, expireInSeconds: 12 * 3600 },
  [QUEUES.poll]: { policy: 'short', retryLimit: 0, expireInSeconds: 3600 },
  [QUEUES.reconcile]: { policy: 'short', retryLimit: 0, expireInSeconds: 3600 },
  [QUEUES.retention]: { policy: 'short', retryLimit: 0, expireInSeconds: 3600 },
  [QUEUES.auditCheckpoint]: { policy: 'short', retryLimit: 0, expireInSeconds: 900 },
  [QUEUES.auditVerify]: { policy: 'short', retryLimit: 0, expireInSeconds: 3600 },
  // One queued job per delivery; the delivery row, not the job, holds the attempts and the backoff.
  [QUEUES.deliverWebhook]: { policy: 'short', retryLimit: 3, retryDelay: 5, expireInSeconds: 300 },
  [QUEUES.webhookWatch]: { policy: 'short', retryLimit: 0, expireInSeconds: 600 },
  [QUEUES.rematchCases]: { retryLimit: 3, retryDelay: 10, expireInSeconds: 3600 },
  [QUEUES.releaseClaims]: { policy: 'short', retryLimit: 0, expireInSeconds: 300 },
  // A failed sampling is retried: the deterministic draw makes a rerun add only what is missing.
  [QUEUES.qaSample]: { retryLimit: 3, retryDelay: 30, expireInSeconds: 3600 },
  [QUEUES.qaWeekly]: { policy: 'short', retryLimit: 0, expireInSeconds: 600 },
  [QUEUES.flushDeniedCalls]: { policy: 'short', retryLimit: 0, expireInSeconds: 300 },
  [QUEUES.caseReminders]: { policy: 'short', retryLimit: 0, expireInSeconds: 300 },
  // An SMTP server that is down for a while: retried with backoff for about an hour.
  [QUEUES.notificationEmail]: { retryLimit: 8, retryDelay: 30, retryBackoff: true, expireInSeconds: 120 },
};

/** JOB_SCHEMA (lib/env/index.ts, default pgboss), read without validating the whole configuration. */
export const queueSchemaName = () => process.env.JOB_SCHEMA || 'pgboss';

export interface BossOptions {
  url?: string;
  /** Postgres schema of the queue; tests give each file its own. */
  schema?: string;
  /** Connections of pg-boss's own pool (kept small: the embedded database runs one statement at a time). */
  max?: number;
  /** Workers maintain the queue and run the cron schedules; senders do neither. */
  worker?: boolean;
  onError?: (err: Error) => void;
}

/** A started pg-boss with every queue created. Processes use `getBoss()`; this is for tests and tools. */
export async function createBoss(opts: BossOptions = {}): Promise<PgBoss> {
  const url = opts.url ?? process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set');
  const worker = opts.worker ?? true;
  const boss = new PgBoss({
    connectionString: url,
    max: opts.max ?? 4,
    schema: opts.schema ?? queueSchemaName(),
    supervise: worker,
    schedule: worker,
  });
  boss.on('error', opts.onError ?? ((err) => logFor('jobs').error({ error: err.constructor.name }, err.message)));
  observeWork(boss);
  carryTrace(boss);
  await boss.start();
  for (const name of Object.values(QUEUES)) await ensureQueue(boss, name, QUEUE_OPTIONS[name]);
  return boss;
}

/** The job's data with the sender's `traceparent`, when the sender is inside a recorded trace. */
function withTrace(data: unknown): unknown {
  const traceparent = currentTraceparent();
  if (!traceparent || (data !== undefined && (data === null || typeof data !== 'object' || Array.isArray(data))))
    return data;
  return { ...(data as object), traceparent };
}

/**
 * Every job sent or inserted inside a trace carries it in its row (`data.traceparent`), so the
 * worker that runs it continues the same trace: a label's delivery to the service is part of the
 * label's trace, whichever process delivers it and however late.
 */
function carryTrace(boss: PgBoss) {
  const send = boss.send.bind(boss) as (...args: unknown[]) => Promise<string | null>;
  (boss as unknown as { send: typeof send }).send = (...args: unknown[]) => {
    if (typeof args[0] === 'string') args[1] = withTrace(args[1]);
    else if (args[0] && typeof args[0] === 'object') {
      const request = args[0] as { data?: unknown };
      args[0] = { ...request, data: withTrace(request.data) };
    }
    return send(...args);
  };
  const insert = boss.insert.bind(boss) as (jobs: PgBoss.JobInsert[], options?: unknown) => Promise<void>;
  (boss as unknown as { insert: typeof insert }).insert = (jobs, options) =>
    insert(
      jobs.map((j) => ({ ...j, data: withTrace(j.data) as object })),
      options,
    );
}

type WorkHandler = (jobs: PgBoss.Job<Record<string, unknown>>[]) => Promise<unknown>;

/**
 * Every job handler of every queue, whoever registers it, runs as one span and one observation
 * per batch. A job sent inside a trace carries its `traceparent` in its data (`traceCarrier()`,
 * lib/telemetry/tracing.ts): a batch of one continues that trace, a larger batch links to each.
 */
function observeWork(boss: PgBoss) {
  const work = boss.work.bind(boss) as (name: string, ...rest: unknown[]) => Promise<string>;
  (boss as unknown as { work: typeof work }).work = (name: string, ...rest: unknown[]) => {
    const handler = rest.pop() as WorkHandler;
    const observed: WorkHandler = async (jobs) => {
      const parents = jobs.map((j) => (typeof j.data?.traceparent === 'string' ? j.data.traceparent : null));
      const t0 = performance.now();
      let outcome = 'failed';
      try {
        const out = await withSpan(
          `job ${name}`,
          {
            kind: SpanKind.CONSUMER,
            parent: jobs.length === 1 ? parents[0] : null,
            links: jobs.length > 1 ? parents.flatMap(linkTo) : [],
            attributes: { 'messaging.destination.name': name, 'messaging.batch.message_count': jobs.length },
          },
          () => handler(jobs),
        );
        outcome = 'completed';
        return out;
      } finally {
        metrics().jobDuration.observe({ queue: name, outcome }, secondsSince(t0));
      }
    };
    return work(name, ...rest, observed);
  };
}

/**
 * Creates a queue unless it exists. createQueue is idempotent in pg-boss 10 only through the
 * check, and processes starting together on a new schema race: the loser of a deadlock (each
 * queue is a partition of one table) or of the insert tries again, then finds it made.
 */
export async function ensureQueue(boss: PgBoss, name: string, options: Omit<PgBoss.Queue, 'name'> = {}): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    if (await boss.getQueue(name)) return;
    try {
      await boss.createQueue(name, { name, ...options });
      return;
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      // 40P01 deadlock, 23505 unique violation, 42P07 duplicate table.
      if (attempt >= 8 || !['40P01', '23505', '42P07'].includes(code)) throw err;
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 200));
    }
  }
}

type Holder = { boss?: PgBoss; starting?: Promise<PgBoss> };
const holder = ((globalThis as unknown as { __verdictBoss?: Holder }).__verdictBoss ??= {});

/**
 * The process-wide pg-boss, started (and its queues created) on first use. It only sends jobs,
 * unless the process's worker installed its own with `setBoss` (lib/sync/worker.ts).
 */
export function getBoss(url = process.env.DATABASE_URL): Promise<PgBoss> {
  if (holder.boss) return Promise.resolve(holder.boss);
  holder.starting ??= createBoss({ url, worker: false })
    .then((boss) => {
      holder.boss = boss;
      onShutdown('jobs', () => stopBoss());
      return boss;
    })
    .catch((err) => {
      holder.starting = undefined;
      throw err;
    });
  return holder.starting;
}

/** Makes `boss` the process's pg-boss (a worker's, so that sends in this process share it). */
export function setBoss(boss: PgBoss | undefined): void {
  holder.boss = boss;
  holder.starting = undefined;
}

export async function stopBoss(opts: { graceful?: boolean } = {}): Promise<void> {
  const boss = holder.boss;
  holder.boss = undefined;
  holder.starting = undefined;
  if (boss) await boss.stop({ graceful: opts.graceful ?? true, wait: true, timeout: 10_000 });
}

/**
 * Lets pg-boss write a job inside a drizzle transaction, so that a record and the job that
 * acts on it are stored together or not at all (feedback, callbacks).
 */
export function jobDb(tx: Tx): PgBoss.Db {
  const client = (
    tx as unknown as { session: { client: { query(text: string, values: unknown[]): Promise<{ rows: unknown[] }> } } }
  ).session.client;
  return { executeSql: (text, values) => client.query(text, values) as Promise<{ rows: never[] }> };
}

/**
 * Works a queue whose jobs name one record by its UUID (`data[key]`): one job at a time, polled
 * every `pollingIntervalSeconds`. A job without a well-formed id is dropped: it names nothing to
 * work on, and the record it meant is not touched. Returns the worker's id (for boss.offWork).
 */
export function workById(
  boss: PgBoss,
  queue: string,
  key: string,
  handle: (id: string) => Promise<unknown>,
  options: { pollingIntervalSeconds?: number } = {},
): Promise<string> {
  return boss.work<Record<string, unknown>>(
    queue,
    { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1 },
    async ([job]) => {
      const id = job.data?.[key];
      if (typeof id === 'string' && /^[0-9a-f-]{36}$/i.test(id)) await handle(id);
    },
  );
}
