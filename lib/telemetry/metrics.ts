/**
 * The Prometheus metrics of a process (prom-client), served at /metrics by the console
 * (app/metrics/route.ts) and by each worker (lib/server/metrics-listener.ts). Kept on
 * globalThis: the console server (plain Node) and the code Next bundled for the routes are two
 * copies of this module that must fill one registry.
 *
 * Labels are bounded by the code or the configuration, never by callers or data: route templates
 * (./routes.ts), action and queue names, the service's operation ids and status codes, webhook
 * endpoint ids (a handful, set by admins), case queue names. Never a path, a person or an
 * execution id. The state of the database (queue depths, lags, backlogs) is read at scrape time
 * by ./state-gauges.ts.
 */
import client from 'prom-client';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function create() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'verdict_process_' });
  const registers = [registry];
  return {
    registry,
    httpRequestDuration: new client.Histogram({
      name: 'verdict_http_request_duration_seconds',
      help: 'Console requests by route template, method and status class.',
      labelNames: ['route', 'method', 'status'] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    actionDuration: new client.Histogram({
      name: 'verdict_action_duration_seconds',
      help: 'Server actions by name and outcome (ok, invalid, forbidden, unauthenticated, error, outage).',
      labelNames: ['action', 'outcome'] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    jobDuration: new client.Histogram({
      name: 'verdict_job_duration_seconds',
      help: 'Jobs run by this process, by queue and outcome.',
      labelNames: ['queue', 'outcome'] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    idvRequestDuration: new client.Histogram({
      name: 'verdict_idv_request_duration_seconds',
      help: "Calls to the verification service by the spec's operation id and final outcome (status code or network).",
      labelNames: ['operation', 'outcome'] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    idvErrorResponses: new client.Counter({
      name: 'verdict_idv_error_responses_total',
      help: "The service's 429 and 5xx answers, every attempt (retries included), by operation and status.",
      labelNames: ['operation', 'status'] as const,
      registers,
    }),
    idvTokenRenewals: new client.Counter({
      name: 'verdict_idv_token_requests_total',
      help: 'Access tokens requested from the service (the first and every renewal).',
      registers,
    }),
    webhookAttempts: new client.Counter({
      name: 'verdict_webhook_attempts_total',
      help: 'Webhook delivery attempts by endpoint and outcome (delivered, retry_scheduled, failed, disabled).',
      labelNames: ['endpoint', 'outcome'] as const,
      registers,
    }),
    feedbackDeliveries: new client.Counter({
      name: 'verdict_feedback_deliveries_total',
      help: 'Feedback delivery attempts to the service by outcome.',
      labelNames: ['outcome'] as const,
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof create>;

const holder = globalThis as unknown as { __verdictMetrics?: Metrics };

export function metrics(): Metrics {
  return (holder.__verdictMetrics ??= create());
}

/** Seconds since `t0` (a `performance.now()`), for histograms. */
export const secondsSince = (t0: number) => (performance.now() - t0) / 1000;
