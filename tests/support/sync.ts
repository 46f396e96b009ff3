/**
 * Shared parts of the sync tests: a simulator over real HTTP, a client of it with test-sized
 * delays, a callback receiver (handleCallback behind a real HTTP server), journeys through the
 * API, and the comparison of the cache with the service.
 *
 * The sync tests own the cache while they run (vitest runs files one at a time): a backfill
 * walks the whole service and its watermark is global, so each file starts from an empty cache
 * (`resetCache`) instead of namespacing rows.
 */
import http from 'node:http';
import { applyClientAddress } from '@/lib/edge/client-address';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db } from '@/lib/db/client';
import { IdvClient } from '@/lib/idv/client';
import { isRetryable } from '@/lib/idv/errors';
import { listCapabilityEntries, type WorkflowExecutionResult } from '@/lib/idv/schemas';
import type { RunningSimulator, SimulatorOptions } from '@/lib/simulator';
import { simulatorConfig, startTestSimulator } from './simulator';
import { idCardAndSelfieWorkflow } from './idv/wire-samples';
import { imageFor } from '@/lib/simulator/images';
import { serveCallback } from '@/lib/sync/callback-endpoint';
import type { CallbackDeps } from '@/lib/sync/callbacks';
import { DEFAULT_SYNC_OPTIONS, type SyncOptions } from '@/lib/sync/config';
import { CASE_FIGURE_TABLES } from '@/lib/db/schema/case-figures';
import { ROLLUP_TABLE_LIST } from '@/lib/sync/rollup';
import { startWorker, type StartWorkerOptions } from '@/lib/sync/worker';

export const ANCHOR = new Date('2026-06-01T12:00:00Z');

export function startSim(opts: SimulatorOptions = {}): Promise<RunningSimulator> {
  return startTestSimulator({
    seed: `sync-${randomBytes(3).toString('hex')}`,
    rateLimits: false,
    anchor: ANCHOR,
    ...opts,
  });
}

/** A client of the simulator with test-sized backoff and no client-side rate limit. */
export function clientFor(sim: RunningSimulator, over: { maxRetries?: number } = {}): IdvClient {
  return new IdvClient(
    simulatorConfig(sim, {
      userAgent: 'Verdict tests/1.0',
      timeoutMs: 5000,
      maxRetries: over.maxRetries ?? 4,
      retrievalRatePerSec: 10_000,
      retrievalBurst: 1000,
      accountRatePerSec: 10_000,
      accountBurst: 1000,
      apiRatePerSec: 10_000,
      apiBurst: 1000,
      tokenRatePerSec: 10_000,
      tokenBurst: 100,
    }),
    { retry: { baseDelayMs: 20, maxDelayMs: 200 } },
  );
}

export const TEST_OPTIONS: SyncOptions = {
  ...DEFAULT_SYNC_OPTIONS,
  retryScheduleSec: [0.3, 0.3, 0.5, 0.5, 1, 1, 1, 1, 1, 1],
  runRetryDelaysMs: [50, 100, 200, 400, 800, 1500, 3000],
  leaseMs: 1500,
  pollingIntervalSec: 0.5,
  pageSize: 25,
  detailConcurrency: 8,
  fetchConcurrency: 8,
  verifyTimeoutMs: 2000,
};

/**
 * A sync worker as the tests run it: on its own queue schema, with TEST_OPTIONS, no schedules, no
 * catch-up at start, its own pg-boss (not the process's), and quiet; `o` overrides any of that.
 */
export function startTestWorker(
  o: Pick<StartWorkerOptions, 'db' | 'idv' | 'queueSchema'> & Partial<StartWorkerOptions>,
) {
  return startWorker({
    options: TEST_OPTIONS,
    schedules: false,
    initialSync: false,
    log: () => undefined,
    ...o,
  });
}

/** An empty cache and no sync history (see the file comment). */
export async function resetCache(db: Db) {
  // Other files' rows include append-only feedback history, whose triggers refuse TRUNCATE; a
  // test-only reset may bypass triggers for its own transaction (superuser test databases).
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(
      // The case figures' tables are kept by triggers this bypass skips: they are emptied with the cases.
      sql.raw(
        `truncate executions, callbacks, sync_runs, sync_failures, sync_seen, ${ROLLUP_TABLE_LIST}, ${CASE_FIGURE_TABLES} cascade`,
      ),
    );
  });
  await db.execute(sql`delete from settings where key like 'sync.%'`);
}

export const queueSchema = () => `pgboss_t${randomBytes(4).toString('hex')}`;

export async function dropQueueSchema(db: Db, schema: string) {
  await db.execute(sql.raw(`drop schema if exists "${schema}" cascade`));
}

/** The callback receiver behind a real HTTP server, as the service reaches the console. */
export async function callbackServer(deps: CallbackDeps) {
  const server = http.createServer((req, res) => {
    // The console's own edge step and callback door, as scripts/console-server.ts runs them before Next.
    applyClientAddress(req);
    void serveCallback(req, res, deps);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (secret: string) => `http://127.0.0.1:${port}/api/idv/callback?token=${encodeURIComponent(secret)}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * The test's customer does not give up while faults are injected: a step the client gave up on
 * (429 burst, 503) is sent again. Safe: the service refuses nothing twice for these steps.
 */
async function persist<T>(fn: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (i >= 10 || !isRetryable(err)) throw err;
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}

/** One journey through the API: account (A1), front, back and selfie (C2), finalize (C5). */
export async function journey(
  idv: IdvClient,
  opts: { callbackUrl?: string; reference?: string; variant?: number } = {},
) {
  const v = opts.variant ?? Math.floor(Math.random() * 40);
  const account = await persist(() =>
    idv.createAccount({
      customerInternalReference: opts.reference ?? `sync-test-${randomBytes(4).toString('hex')}`,
      userReference: `user-${v}`,
      callbackUrl: opts.callbackUrl,
      workflowDefinition: idCardAndSelfieWorkflow('DEU'),
      userConsent: { userIp: '203.0.113.7', consent: { obtained: 'yes', obtainedAt: '2026-06-01T10:00:00Z' } },
    }),
  );
  const creds = account.workflowExecution.credentials;
  const id = creds.find((c) => c.category === 'ID')!;
  const selfie = creds.find((c) => c.category === 'SELFIE')!;
  const front = imageFor('document-front', v % 48);
  const back = imageFor('document-back', v % 48);
  const face = imageFor('face', v % 96);
  await persist(() => idv.addPart(id.api!.token!, id.api!.parts!.front!, 'FRONT', front.bytes, front.contentType));
  await persist(() => idv.addPart(id.api!.token!, id.api!.parts!.back!, 'BACK', back.bytes, back.contentType));
  await persist(() => idv.addPart(selfie.api!.token!, selfie.api!.parts!.face!, 'FACE', face.bytes, face.contentType));
  await persist(() =>
    idv.finalize(
      id.api!.token!,
      id.api!.workflowExecution ?? { accountId: account.account.id, workflowExecutionId: account.workflowExecution.id },
    ),
  );
  return { accountId: account.account.id, executionId: account.workflowExecution.id };
}

/** Every execution the service lists (R12 to the end). */
export async function listAll(idv: IdvClient): Promise<WorkflowExecutionResult[]> {
  const out: WorkflowExecutionResult[] = [];
  for (let page = 1; ; page++) {
    const r = await idv.listExecutions({ page, size: 100 });
    out.push(...r.workflowExecutions);
    if (r.workflowExecutions.length + r.skipped.length < 100) return out;
  }
}

/**
 * The cache holds exactly what the service holds: the same executions (no more, no fewer),
 * each with the same status, decision and score, every capability entry once, and the steps
 * and rules of every processed execution once.
 */
export async function expectCacheMatchesService(db: Db, idv: IdvClient) {
  const service = await listAll(idv);
  const ids = service.map((r) => r.workflow.id.toLowerCase());
  expect(new Set(ids).size).toBe(ids.length);
  const rows = await db.execute<{
    id: string;
    status: string;
    decision_type: string | null;
    risk_score: number | null;
    wiped: boolean;
    entries: number;
    steps: number;
    rules: number;
    gone: boolean;
  }>(sql`
    select e.id, e.status, e.decision_type, e.risk_score, e.wiped_out_at is not null as wiped, e.gone_at is not null as gone,
      (select count(*)::int from capability_entries c where c.execution_id = e.id) as entries,
      (select count(*)::int from steps s where s.execution_id = e.id) as steps,
      (select count(*)::int from rule_results r where r.execution_id = e.id) as rules
    from executions e`);
  const cached = new Map(rows.rows.map((r) => [r.id, r]));
  expect(cached.size, 'executions cached against executions at the service').toBe(service.length);
  const mismatches: string[] = [];
  const stepsMissing: string[] = [];
  for (const r of service) {
    const c = cached.get(r.workflow.id.toLowerCase());
    if (!c) {
      mismatches.push(`${r.workflow.id}: not cached`);
      continue;
    }
    const entries = listCapabilityEntries(r.capabilities).reduce((n, x) => n + x.entries.length, 0);
    const want = {
      status: r.workflow.status,
      decision: r.decision?.type ?? null,
      score: r.decision?.risk?.score ?? null,
      wiped: Boolean(r.wipedOutAt),
      entries,
    };
    const got = {
      status: c.status,
      decision: c.decision_type,
      score: c.risk_score,
      wiped: c.wiped,
      entries: c.entries,
    };
    if (JSON.stringify(want) !== JSON.stringify(got))
      mismatches.push(`${r.workflow.id}: service ${JSON.stringify(want)} cache ${JSON.stringify(got)}`);
    if (r.workflow.status === 'PROCESSED' && !r.wipedOutAt && (c.steps === 0 || c.rules === 0))
      stepsMissing.push(r.workflow.id);
  }
  expect(mismatches).toEqual([]);
  expect(stepsMissing).toEqual([]);
  // Each capability entry, step and rule result exactly once.
  const dup = await db.execute<{ n: number }>(sql`
    select (select count(*)::int from (select execution_id, capability, position from capability_entries group by 1, 2, 3 having count(*) > 1) a)
         + (select count(*)::int from (select execution_id, rule_execution_id, ruleset_id, rule_id, matched from rule_results group by 1, 2, 3, 4, 5 having count(*) > 1) b) as n`);
  expect(dup.rows[0].n).toBe(0);
  return { service: service.length };
}

/** Steps and rule results at the service for one execution, to compare with the cache. */
export async function serviceDetails(idv: IdvClient, accountId: string, executionId: string) {
  const [result, steps, rules] = await Promise.all([
    idv.getExecution(accountId, executionId),
    idv.getSteps(accountId, executionId),
    idv.getRules(accountId, executionId),
  ]);
  const entries = listCapabilityEntries(result.capabilities).reduce((n, x) => n + x.entries.length, 0);
  const ruleCount = rules.executions.reduce(
    (n, e) =>
      n +
      (e.rulesets ?? []).reduce((m, rs) => m + (rs.rulesMatched?.length ?? 0) + (rs.rulesNotMatched?.length ?? 0), 0),
    0,
  );
  return { result, entries, steps: steps.steps.length, rules: ruleCount };
}
