import { eq, inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db/client';
import { capabilityEntries, executions, settings } from '@/lib/db/schema';
import { ingestExecution } from '@/lib/sync/ingest';
import { RETENTION_KEY, retentionDays, runRetention } from '@/lib/sync/retention';
import { buildExecution } from '../support/fixtures/execution';

// Early dates, so that purging "older than" reaches only this file's rows in the shared database.
const now = new Date('2025-09-10T12:00:00Z');
const old = buildExecution({
  createdAt: '2025-09-01T10:00:00.000Z',
  decision: 'REJECTED',
  label: 'REJECTED',
  score: 88,
});
const recent = buildExecution({ createdAt: '2025-09-08T10:00:00.000Z' });

afterAll(async () => {
  await db()
    .delete(executions)
    .where(inArray(executions.id, [old.id, recent.id]));
  await db().delete(settings).where(eq(settings.key, RETENTION_KEY));
});

describe('retention', () => {
  it('the admin setting wins over RETENTION_DAYS; 0 keeps everything', async () => {
    expect(await retentionDays(db(), 7)).toBe(7);
    await db()
      .insert(settings)
      .values({ key: RETENTION_KEY, value: 30 })
      .onConflictDoUpdate({ target: settings.key, set: { value: 30 } });
    expect(await retentionDays(db(), 7)).toBe(30);
    expect(await runRetention(db(), 0, now)).toBe(0);
  });

  it('purges personal data older than the retention and keeps the decision metadata for trends', async () => {
    for (const e of [old, recent])
      await ingestExecution(db(), { result: e.result, steps: e.steps, rules: e.rules, fetchedAt: new Date() });
    const purged = await runRetention(db(), 5, now);
    expect(purged).toBe(1);
    const [o] = await db().select().from(executions).where(eq(executions.id, old.id));
    expect(o).toMatchObject({
      hasPersonalData: false,
      firstName: null,
      lastName: null,
      documentNumber: null,
      decisionType: 'REJECTED',
      riskScore: 88,
    });
    expect(o.personalDataPurgedAt).toBeTruthy();
    const entries = await db().select().from(capabilityEntries).where(eq(capabilityEntries.executionId, old.id));
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.data === null && e.decisionType !== null)).toBe(true);
    const [r] = await db().select().from(executions).where(eq(executions.id, recent.id));
    expect(r.hasPersonalData).toBe(true);
    expect(r.firstName).toBeTruthy();
  });
});
