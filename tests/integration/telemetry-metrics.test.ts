/**
 * The state gauges read a real database: one statement that must run on Postgres and PGlite
 * alike (a failed read only shows as verdict_metrics_state_errors_total), with a queued job and
 * a waiting callback showing up in their series.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db/client';
import { callbacks } from '@/lib/db/schema';
import { getBoss, QUEUES, stopBoss } from '@/lib/jobs/boss';
import { metricsResponse } from '@/lib/server/metrics-endpoint';

afterAll(async () => {
  await stopBoss();
});

const value = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('/metrics state gauges', () => {
  it('reads queue depth, inbox lag and the rest from the database without an error', async () => {
    const boss = await getBoss();
    await boss.send(QUEUES.qaWeekly, {}, { startAfter: 0 });
    await db()
      .insert(callbacks)
      .values({ executionId: randomUUID(), body: {}, receivedAt: new Date(Date.now() - 5_000) });
    const { body, contentType } = await metricsResponse();
    expect(contentType).toContain('text/plain');
    expect(value(body, 'verdict_metrics_state_errors_total')).toBe(0);
    expect(value(body, `verdict_job_queue_depth{queue="${QUEUES.qaWeekly}",state="created"}`)).toBeGreaterThanOrEqual(
      1,
    );
    expect(value(body, `verdict_job_queue_depth{queue="${QUEUES.deliverFeedback}",state="active"}`)).toBe(0);
    expect(value(body, 'verdict_callback_inbox_depth')).toBeGreaterThanOrEqual(1);
    expect(value(body, 'verdict_callback_inbox_lag_seconds')).toBeGreaterThanOrEqual(4);
    expect(value(body, 'verdict_db_pool_connections{state="max"}')).toBeGreaterThan(0);
    expect(body).toContain('# TYPE verdict_http_request_duration_seconds histogram');
  });
});
