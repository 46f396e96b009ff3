/**
 * Shared set-up of the feedback integration tests: a real simulator over HTTP, the service
 * client pointed at it, users, executions ingested from the simulator into the test database,
 * and a count of the feedback writes the simulator accepted.
 */
import { randomUUID } from 'node:crypto';
import { encode } from 'next-auth/jwt';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { createSession, revokeSession } from '@/lib/auth/sessions';
import { db } from '@/lib/db/client';
import { auditLog, feedbackEvents, feedbackSubmissions, users, type Role } from '@/lib/db/schema';
import { IdvClient } from '@/lib/idv';
import { setIdvClient } from '@/lib/server/idv-client';
import { getBoss, QUEUES, stopBoss } from '@/lib/jobs/boss';
import type { RunningSimulator, SimulatorOptions } from '@/lib/simulator';
import { simulatorConfig, startTestSimulator } from './simulator';
import { ingestExecution } from '@/lib/sync/ingest';
import type { RefreshExecution } from '@/lib/feedback/deliver';
import type { FeedbackReason, FeedbackStatus } from '@/lib/feedback/schema';
import { registerFeedbackWorkers, type FeedbackWorkerOptions } from '@/lib/feedback/worker';
import { until } from './wait';
import { request } from './next-headers';

export const SECRET = 'feedback-test-secret-0123456789-0123456789';
process.env.NEXTAUTH_SECRET ??= SECRET;

export interface Sim {
  sim: RunningSimulator;
  /** Successful R11 writes, per workflow execution id. */
  writes: Map<string, number>;
  /** Every R11 request with its status, oldest first. */
  puts: Array<{ executionId: string; status: number }>;
  options: SimulatorOptions;
}

const FEEDBACK_LINE = /^PUT \/api\/v1\/accounts\/[^/]+\/workflow-executions\/([^/]+)\/feedback (\d{3}) /;

/** A simulator whose log counts every feedback write; restartable on the same port with the same data. */
export async function startSim(over: SimulatorOptions = {}, into?: Sim): Promise<Sim> {
  const target: Sim = into ?? {
    sim: undefined as unknown as RunningSimulator,
    writes: new Map(),
    puts: [],
    options: {},
  };
  const options: SimulatorOptions = {
    port: 0,
    seed: 'feedback-tests',
    executions: 120,
    anchor: new Date('2026-10-01T12:00:00Z'),
    rateLimits: false,
    clientId: 'feedback-client',
    clientSecret: 'feedback-secret-0123456789',
    ...target.options,
    ...over,
    log: (line) => {
      const m = FEEDBACK_LINE.exec(line);
      if (!m) return;
      target.puts.push({ executionId: m[1], status: Number(m[2]) });
      if (m[2] === '200') target.writes.set(m[1], (target.writes.get(m[1]) ?? 0) + 1);
    },
  };
  target.sim = await startTestSimulator(options);
  target.options = { ...options, port: Number(new URL(target.sim.url).port) };
  setIdvClient(
    new IdvClient(
      simulatorConfig(target.sim, { maxRetries: 0, timeoutMs: 3000, retrievalRatePerSec: 1000, retrievalBurst: 1000 }),
    ),
  );
  return target;
}

export interface TestUser {
  id: string;
  email: string;
  name: string;
  role: Role;
}

export async function createUser(role: Role, label: string = role): Promise<TestUser> {
  const [u] = await db()
    .insert(users)
    .values({ email: `${label}-${randomUUID().slice(0, 8)}@feedback.test`, name: `${label} tester`, role })
    .returning({ id: users.id, email: users.email, name: users.name, role: users.role });
  return u;
}

export interface CachedExecution {
  id: string;
  accountId: string;
  status: string;
}

/** Ingests simulator executions (R2 over HTTP) into the cache; `pick` chooses which. */
export async function ingestFromSim(
  s: Sim,
  pick: (r: { status: string; wiped: boolean; feedback: boolean }) => boolean,
  n: number,
  skip = 0,
): Promise<CachedExecution[]> {
  const client = new IdvClient(simulatorConfig(s.sim, { retrievalRatePerSec: 1000, retrievalBurst: 1000 }));
  const out: CachedExecution[] = [];
  let seen = 0;
  for (let page = 1; out.length < n && page <= 10; page++) {
    const list = await client.listExecutions({ page, size: 100 });
    if (!list.workflowExecutions.length) break;
    for (const r of list.workflowExecutions) {
      if (!pick({ status: String(r.workflow.status), wiped: Boolean(r.wipedOutAt), feedback: Boolean(r.feedback) }))
        continue;
      if (seen++ < skip) continue;
      await ingestExecution(db(), { result: r, fetchedAt: new Date() });
      out.push({
        id: r.workflow.id.toLowerCase(),
        accountId: r.account.id.toLowerCase(),
        status: String(r.workflow.status),
      });
      if (out.length >= n) break;
    }
  }
  expect(out.length).toBe(n);
  return out;
}

export const processedWithoutFeedback = (r: { status: string; wiped: boolean; feedback: boolean }) =>
  r.status === 'PROCESSED' && !r.wiped && !r.feedback;

/**
 * A simulator seeded with `seed`, the job queue, and `n` of the simulator's processed executions
 * that have no feedback yet, ingested into the cache: what a file labelling executions starts from.
 */
export async function startWithUnlabelled(seed: string, n: number): Promise<{ s: Sim; ex: CachedExecution[] }> {
  const s = await startSim({ seed });
  await getBoss();
  return { s, ex: await ingestFromSim(s, processedWithoutFeedback, n) };
}

/** Undoes `startWithUnlabelled`. */
export async function stopQueueAndSim(s: Sim): Promise<void> {
  await stopBoss();
  await s.sim.close();
}

/** The feedback R2 shows at the simulator. */
export async function serviceFeedback(e: CachedExecution): Promise<{ status: string; reason?: string } | undefined> {
  const { getIdvClient } = await import('@/lib/server/idv-client');
  return (await getIdvClient().getExecution(e.accountId, e.id)).feedback as
    { status: string; reason?: string } | undefined;
}

export const newKey = () => randomUUID().replace(/-/g, '');

export { until };

export async function stateOf(submissionId: string) {
  const [s] = await db().select().from(feedbackSubmissions).where(eq(feedbackSubmissions.id, submissionId));
  return s;
}

/** Waits until the workers have delivered the submission; `what` names the wait in a timeout. */
export const untilDelivered = (submissionId: string, what = 'delivery') =>
  until(
    () => stateOf(submissionId),
    (x) => x.state === 'delivered',
    20_000,
    what,
  );

/** A label on an execution that has no feedback yet, under a fresh idempotency key. */
export const firstLabel = (
  executionId: string,
  status: FeedbackStatus = 'FRAUD',
  reason: FeedbackReason | undefined = status === 'FRAUD' ? 'IDENTITY_FRAUD' : undefined,
) => ({ executionId, status, reason, version: 'none', idempotencyKey: newKey() });

/** Rows that a feedback write touches, for "nothing was written" checks. */
export async function footprint(executionIds: string[]) {
  const [subs] = await db()
    .select({ n: count() })
    .from(feedbackSubmissions)
    .where(inArray(feedbackSubmissions.executionId, executionIds));
  const [events] = await db()
    .select({ n: count() })
    .from(feedbackEvents)
    .where(inArray(feedbackEvents.executionId, executionIds));
  const [audits] = await db()
    .select({ n: count() })
    .from(auditLog)
    .where(and(sql`${auditLog.action} like 'feedback.%'`, inArray(auditLog.targetId, executionIds)));
  const jobs = await db().execute<{ n: number }>(
    sql`select count(*)::int as n from pgboss.job j join feedback_submissions s on j.data->>'feedbackId' = s.id::text where j.name = ${QUEUES.deliverFeedback} and s.execution_id in ${executionIds}`,
  );
  return { submissions: subs.n, events: events.n, audits: audits.n, jobs: jobs.rows[0]?.n ?? 0 };
}

/** A signed session cookie for `user`, as next-auth would set it; `end()` signs the session out server-side. */
export async function sessionCookieFor(user: { id: string }): Promise<{ value: string; end(): Promise<void> }> {
  const sid = await createSession(user.id, { ip: '127.0.0.1', userAgent: 'vitest' });
  const value = await encode({ token: { sid, sub: user.id }, secret: process.env.NEXTAUTH_SECRET! });
  return { value, end: () => revokeSession(sid) };
}

/** Signs `user` in for the server actions that follow, in a file that mocks `next/headers` with ./next-headers. */
export async function signInAs(user: { id: string }): Promise<void> {
  request.cookie = (await sessionCookieFor(user)).value;
}

/** What the process's worker wiring gives feedback delivery (lib/workers): the refetched execution goes through ingest. */
export const refreshThroughIngest: RefreshExecution = (fetched) => ingestExecution(db(), fetched);

/**
 * The feedback workers on the job queue, wired as a worker process wires them but polling faster
 * and without logs; `opts` overrides that. Resolves to a function that takes them off the queue.
 */
export async function startFeedbackWorkers(opts: Partial<FeedbackWorkerOptions> = {}): Promise<() => Promise<void>> {
  const boss = await getBoss();
  const ids = await registerFeedbackWorkers(boss, {
    db: db(),
    pollingIntervalSeconds: 0.5,
    refresh: refreshThroughIngest,
    log: () => undefined,
    ...opts,
  });
  return async () => {
    for (const id of ids) await boss.offWork({ id });
  };
}
