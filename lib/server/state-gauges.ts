import 'server-only';
/**
 * The gauges read from the database at scrape time: what is waiting and for how long, in the job
 * queue, the callback inbox, the feedback and webhook outboxes, the audit sealer, the sync runs
 * and the case queues. One round trip of small aggregates, each on an index its table already has
 * for its own worker (the inbox, unsealed and unresolved-case partial indexes). Every process that
 * serves /metrics reports them, so any one scrape target shows the whole system.
 */
import client from 'prom-client';
import { db } from '@/lib/db/client';
import { QUEUES, queueSchemaName } from '@/lib/jobs/boss';
import { logError } from '@/lib/log';
import { metrics } from '@/lib/telemetry/metrics';

function createGauges() {
  const registers = [metrics().registry];
  const gauge = (name: string, help: string, labelNames: string[] = []) =>
    new client.Gauge({ name, help, labelNames, registers });
  return {
    poolConnections: gauge('verdict_db_pool_connections', "This process's database pool by state.", ['state']),
    jobDepth: gauge('verdict_job_queue_depth', 'Jobs per queue and state (created, retry, active).', [
      'queue',
      'state',
    ]),
    jobAge: gauge(
      'verdict_job_queue_oldest_seconds',
      'Age of the oldest due job per queue (waiting since its start time).',
      ['queue'],
    ),
    inboxDepth: gauge('verdict_callback_inbox_depth', 'Stored callbacks not yet turned into work.'),
    inboxLag: gauge('verdict_callback_inbox_lag_seconds', 'Age of the oldest callback waiting in the inbox.'),
    feedbackDepth: gauge('verdict_feedback_outbox_depth', 'Feedback submissions not yet delivered, by state.', [
      'state',
    ]),
    feedbackLag: gauge(
      'verdict_feedback_delivery_lag_seconds',
      'Age of the oldest feedback waiting for delivery (pending or delivering).',
    ),
    webhookDepth: gauge('verdict_webhook_outbox_depth', 'Webhook deliveries not yet sent, by endpoint.', ['endpoint']),
    webhookLag: gauge('verdict_webhook_delivery_lag_seconds', 'Age of the oldest undelivered webhook, by endpoint.', [
      'endpoint',
    ]),
    webhookFailed: gauge('verdict_webhook_failed_deliveries', 'Webhook deliveries that gave up, by endpoint.', [
      'endpoint',
    ]),
    syncLag: gauge(
      'verdict_sync_lag_seconds',
      'Time since the last completed sync run (poll, backfill or reconciliation) finished, by kind.',
      ['kind'],
    ),
    casesPastSla: gauge('verdict_cases_past_sla', 'Unresolved cases past their due time, by case queue.', ['queue']),
    auditUnsealed: gauge('verdict_audit_unsealed_entries', 'Audit entries not yet sealed into the chain.'),
    auditLag: gauge('verdict_audit_sealing_lag_seconds', 'Age of the oldest unsealed audit entry.'),
    scrapeErrors: new client.Counter({
      name: 'verdict_metrics_state_errors_total',
      help: 'Scrapes whose database read failed (the state gauges then keep their last values).',
      registers,
    }),
  };
}

const holder = globalThis as unknown as { __verdictStateGauges?: ReturnType<typeof createGauges> };
const gauges = () => (holder.__verdictStateGauges ??= createGauges());

type Row = { metric: string; label: string | null; n: number | string | null };

/** Reads the database's state into the gauges; a failure is counted, not thrown (the rest still answers). */
export async function refreshStateGauges(): Promise<void> {
  const g = gauges();
  const pool = db().$client;
  g.poolConnections.set({ state: 'total' }, pool.totalCount);
  g.poolConnections.set({ state: 'idle' }, pool.idleCount);
  g.poolConnections.set({ state: 'waiting' }, pool.waitingCount);
  g.poolConnections.set({ state: 'max' }, pool.options.max ?? 10);
  let rows: Row[];
  try {
    rows = (await pool.query<Row>(STATE_SQL(queueSchemaName()))).rows;
  } catch (err) {
    g.scrapeErrors.inc();
    logError('metrics state read', err);
    return;
  }
  for (const gauge of [
    g.jobDepth,
    g.jobAge,
    g.feedbackDepth,
    g.webhookDepth,
    g.webhookLag,
    g.webhookFailed,
    g.syncLag,
    g.casesPastSla,
  ])
    gauge.reset();
  // Every queue has its series from the first scrape on, at 0 while empty (a rate needs a start).
  for (const queue of Object.values(QUEUES)) {
    for (const state of ['created', 'retry', 'active']) g.jobDepth.set({ queue, state }, 0);
    g.jobAge.set({ queue }, 0);
  }
  g.inboxLag.set(0);
  g.feedbackLag.set(0);
  g.auditLag.set(0);
  for (const r of rows) {
    const n = Number(r.n ?? 0);
    const label = r.label ?? '';
    switch (r.metric) {
      case 'job_depth': {
        const [queue, state] = label.split('|');
        g.jobDepth.set({ queue, state }, n);
        break;
      }
      case 'job_age':
        g.jobAge.set({ queue: label }, n);
        break;
      case 'inbox_depth':
        g.inboxDepth.set(n);
        break;
      case 'inbox_lag':
        g.inboxLag.set(n);
        break;
      case 'feedback_depth':
        g.feedbackDepth.set({ state: label }, n);
        break;
      case 'feedback_lag':
        g.feedbackLag.set(n);
        break;
      case 'webhook_depth':
        g.webhookDepth.set({ endpoint: label }, n);
        break;
      case 'webhook_lag':
        g.webhookLag.set({ endpoint: label }, n);
        break;
      case 'webhook_failed':
        g.webhookFailed.set({ endpoint: label }, n);
        break;
      case 'sync_lag':
        g.syncLag.set({ kind: label }, n);
        break;
      case 'cases_past_sla':
        g.casesPastSla.set({ queue: label }, n);
        break;
      case 'audit_unsealed':
        g.auditUnsealed.set(n);
        break;
      case 'audit_lag':
        g.auditLag.set(n);
        break;
    }
  }
}

const age = (col: string) => `coalesce(extract(epoch from now() - ${col}), 0)::float8`;

/** One statement, so a scrape holds one connection once. The queue schema is configuration (JOB_SCHEMA), not input. */
const STATE_SQL = (jobSchema: string) => `
  select 'job_depth' as metric, name || '|' || state as label, count(*)::float8 as n
    from "${jobSchema.replace(/"/g, '')}".job where state in ('created', 'retry', 'active') group by name, state
  union all
  select 'job_age', name, ${age('min(start_after)')}
    from "${jobSchema.replace(/"/g, '')}".job where state in ('created', 'retry') and start_after <= now() group by name
  union all
  select 'inbox_depth', null, count(*)::float8 from callbacks where dispatched_at is null
  union all
  select 'inbox_lag', null, ${age('min(received_at)')} from callbacks where dispatched_at is null
  union all
  select 'feedback_depth', state, count(*)::float8 from feedback_submissions
   where state in ('awaiting_approval', 'pending', 'delivering', 'failed') group by state
  union all
  select 'feedback_lag', null, ${age('min(submitted_at)')} from feedback_submissions
   where state in ('pending', 'delivering')
  union all
  select 'webhook_depth', endpoint_id::text, count(*)::float8 from webhook_deliveries
   where state in ('pending', 'queued', 'delivering') group by endpoint_id
  union all
  select 'webhook_lag', endpoint_id::text, ${age('min(created_at)')} from webhook_deliveries
   where state in ('pending', 'queued', 'delivering') group by endpoint_id
  union all
  select 'webhook_failed', endpoint_id::text, count(*)::float8 from webhook_deliveries
   where state = 'failed' group by endpoint_id
  union all
  select 'sync_lag', kind, ${age('max(finished_at)')} from sync_runs where state = 'completed' group by kind
  union all
  select 'cases_past_sla', q.name, count(c.id)::float8 from case_queues q
    left join cases c on c.queue_id = q.id and c.state <> 'resolved' and c.due_at < now()
   group by q.name
  union all
  select 'audit_unsealed', null, count(*)::float8 from audit_log where seq is null
  union all
  select 'audit_lag', null, ${age('min(at)')} from audit_log where seq is null`;
