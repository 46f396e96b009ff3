import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db/client';
import {
  capabilityEntries,
  credentials,
  executionLinks,
  executions,
  partImages,
  ruleResults,
  steps,
} from '@/lib/db/schema';
import { ingestExecution, ingestMany } from '@/lib/sync/ingest';
import { markGoneAtService, purgePersonalData } from '@/lib/sync/purge';
import { buildExecution } from '../support/fixtures/execution';

const T0 = new Date('2026-11-01T10:05:00Z');
const later = (s: number) => new Date(T0.getTime() + s * 1000);

async function countChildren(id: string) {
  const [c] = await db()
    .execute<{ creds: number; caps: number; steps: number; rules: number }>(
      sql`
    select (select count(*)::int from credentials where execution_id = ${id}) as creds,
           (select count(*)::int from capability_entries where execution_id = ${id}) as caps,
           (select count(*)::int from steps where execution_id = ${id}) as steps,
           (select count(*)::int from rule_results where execution_id = ${id}) as rules`,
    )
    .then((r) => r.rows);
  return c;
}

describe('ingest: service JSON to cache rows (real database)', () => {
  it('writes the execution with its searchable columns and every child row', async () => {
    const x = buildExecution({ firstName: 'Ada', lastName: 'Lovelace', documentNumber: 'P1234567' });
    expect(await ingestExecution(db(), { ...x, fetchedAt: T0 })).toEqual({ id: x.id, outcome: 'inserted' });
    const [row] = await db().select().from(executions).where(eq(executions.id, x.id));
    expect(row).toMatchObject({
      status: 'PROCESSED',
      statusRank: 3,
      decisionType: 'PASSED',
      riskScore: 12,
      definitionKey: '10013',
      issuingCountry: 'DEU',
      documentType: 'PASSPORT',
      documentNumber: 'P1234567',
      firstName: 'Ada',
      lastName: 'Lovelace',
      hasPersonalData: true,
    });
    // Personal values are searchable only whole, and never as text a substring search could read.
    expect(row.searchTokens).toEqual(expect.arrayContaining(['ada', 'lovelace', 'p1234567']));
    expect(row.searchText ?? '').not.toContain('lovelace');
    expect(row.documentKey).toMatch(/^[0-9a-f]{64}$/);
    expect(row.capabilityTags).toEqual(
      expect.arrayContaining(['liveness:PASSED', 'liveness:label:OK', 'extraction:PASSED']),
    );
    expect(await countChildren(x.id)).toEqual({ creds: 2, caps: 4, steps: 2, rules: 2 });
    const rr = await db().select().from(ruleResults).where(eq(ruleResults.executionId, x.id));
    expect(rr.find((r) => r.ruleId === 'r-country')).toMatchObject({
      matched: true,
      score: 10,
      rulesetName: 'Risk score',
    });
    const st = await db().select().from(steps).where(eq(steps.executionId, x.id)).orderBy(steps.position);
    // Newer steps carry capabilities[].id, older ones only capabilityIds: both are kept.
    expect(st[0].capabilityIds).toHaveLength(2);
    expect(st[1].capabilityIds).toHaveLength(1);
  });

  it('is idempotent, and never lets an older response or a lower status overwrite a newer one', async () => {
    const x = buildExecution({ decision: 'WARNING', score: 50 });
    await ingestExecution(db(), { ...x, fetchedAt: T0 });
    expect((await ingestExecution(db(), { ...x, fetchedAt: later(10) })).outcome).toBe('unchanged');
    expect(await countChildren(x.id)).toEqual({ creds: 2, caps: 4, steps: 2, rules: 2 });

    const newer = structuredClone(x);
    newer.result.decision = { type: 'REJECTED', details: { label: 'REJECTED' }, risk: { score: 90 } };
    expect((await ingestExecution(db(), { ...newer, fetchedAt: later(20) })).outcome).toBe('updated');
    // A response from a request sent earlier arrives late: ignored.
    expect((await ingestExecution(db(), { ...x, fetchedAt: later(15) })).outcome).toBe('stale');
    // A later response claiming an earlier status: ignored.
    const regress = structuredClone(newer);
    regress.result.workflow.status = 'ACQUIRED';
    expect((await ingestExecution(db(), { ...regress, fetchedAt: later(30) })).outcome).toBe('stale');
    const [row] = await db().select().from(executions).where(eq(executions.id, x.id));
    expect(row).toMatchObject({ decisionType: 'REJECTED', riskScore: 90, status: 'PROCESSED' });
    expect(await countChildren(x.id)).toEqual({ creds: 2, caps: 4, steps: 2, rules: 2 });
  });

  it('keeps unknown statuses, decision types, labels and capabilities, and tolerates missing parts', async () => {
    const x = buildExecution({
      decision: 'ESCALATED',
      label: 'BRAND_NEW_LABEL',
      score: -1,
      extraCapabilities: {
        quantumCheck: [{ id: 'qc-1', decision: { type: 'MAYBE', details: { label: 'FUZZY' } }, data: 'plain' }],
      },
    });
    x.result.workflow.status = 'REVIEWING';
    const minimal = { workflow: { id: randomUUID() }, account: { id: randomUUID() } };
    const out = await ingestMany(db(), [
      { ...x, fetchedAt: T0 },
      { result: minimal, fetchedAt: T0 },
    ]);
    expect(out.map((o) => o.outcome)).toEqual(['inserted', 'inserted']);
    const [row] = await db().select().from(executions).where(eq(executions.id, x.id));
    expect(row).toMatchObject({
      status: 'REVIEWING',
      decisionType: 'ESCALATED',
      decisionLabel: 'BRAND_NEW_LABEL',
      riskScore: -1,
    });
    expect(row.capabilityTags).toEqual(expect.arrayContaining(['quantumCheck:MAYBE', 'quantumCheck:label:FUZZY']));
    const [qc] = await db().select().from(capabilityEntries).where(eq(capabilityEntries.entryId, 'qc-1'));
    expect(qc).toMatchObject({ capability: 'quantumCheck', decisionType: 'MAYBE', data: 'plain' });
    const [m] = await db().select().from(executions).where(eq(executions.id, minimal.workflow.id));
    expect(m).toMatchObject({ status: 'UNKNOWN', decisionType: null, riskScore: null });
  });

  it('refuses an unusable record naming the field, and writes nothing of the batch', async () => {
    const good = buildExecution();
    await expect(
      ingestMany(db(), [
        { ...good, fetchedAt: T0 },
        { result: { workflow: {}, account: { id: randomUUID() } }, fetchedAt: T0 },
      ]),
    ).rejects.toThrow(/workflow\.id/);
    await expect(
      ingestMany(db(), [{ result: { workflow: { id: 'not-a-uuid' }, account: { id: randomUUID() } }, fetchedAt: T0 }]),
    ).rejects.toThrow(/workflow\.id/);
    expect(await db().select().from(executions).where(eq(executions.id, good.id))).toHaveLength(0);
  });

  it('links executions through face-search findings', async () => {
    const a = buildExecution();
    const b = buildExecution({ faceFindings: [a.id] });
    await ingestMany(db(), [
      { ...a, fetchedAt: T0 },
      { ...b, fetchedAt: T0 },
    ]);
    const links = await db().select().from(executionLinks).where(eq(executionLinks.executionId, b.id));
    expect(links).toEqual([{ executionId: b.id, linkedId: a.id, kind: 'face' }]);
  });

  it('a wiped result, a result gone at the service and retention keep decision metadata and drop personal data', async () => {
    const wiped = buildExecution({ wipedOutAt: '2026-11-03T00:00:00Z', decision: 'REJECTED', score: 88 });
    const gone = buildExecution({ firstName: 'Gone', decision: 'WARNING', score: 40 });
    const old = buildExecution({ firstName: 'Retained', createdAt: '2020-01-01T00:00:00Z' });
    await ingestMany(
      db(),
      [wiped, gone, old].map((x) => ({ ...x, fetchedAt: T0 })),
    );
    await db()
      .insert(partImages)
      .values({
        credentialId: randomUUID(),
        classifier: 'FRONT',
        executionId: gone.id,
        contentType: 'image/png',
        bytes: Buffer.from([1, 2, 3]),
      });

    await markGoneAtService(db(), gone.id, later(60));
    expect(
      await purgePersonalData(db(), { olderThan: new Date('2021-01-01T00:00:00Z') }, { reason: 'retention' }),
    ).toBeGreaterThanOrEqual(1);

    const rows = await db()
      .select()
      .from(executions)
      .where(inArray(executions.id, [wiped.id, gone.id, old.id]));
    for (const r of rows) {
      expect(r).toMatchObject({
        hasPersonalData: false,
        firstName: null,
        lastName: null,
        documentNumber: null,
        dateOfBirth: null,
      });
      expect(JSON.stringify(r.result)).not.toMatch(/Mustermann|Gone|Retained|203\.0\.113\.7|C01X00T47/);
      expect(r.decisionType).toBeTruthy();
    }
    expect(rows.find((r) => r.id === gone.id)).toMatchObject({ decisionType: 'WARNING', riskScore: 40 });
    expect(rows.find((r) => r.id === gone.id)!.goneAt).toBeInstanceOf(Date);
    expect(rows.find((r) => r.id === wiped.id)).toMatchObject({ decisionType: 'REJECTED', riskScore: 88 });
    const caps = await db()
      .select()
      .from(capabilityEntries)
      .where(inArray(capabilityEntries.executionId, [gone.id, old.id, wiped.id]));
    expect(caps.every((c) => c.data === null)).toBe(true);
    expect(caps.map((c) => c.decisionType)).toContain('PASSED');
    const creds = await db().select().from(credentials).where(eq(credentials.executionId, gone.id));
    expect(creds.every((c) => c.clientIp === null)).toBe(true);
    expect(await db().select().from(partImages).where(eq(partImages.executionId, gone.id))).toHaveLength(0);

    // Retention wins over a later re-fetch: the purged names do not come back.
    expect((await ingestExecution(db(), { ...old, fetchedAt: later(120) })).outcome).toBe('updated');
    const [again] = await db().select().from(executions).where(eq(executions.id, old.id));
    expect(again).toMatchObject({ firstName: null, hasPersonalData: false });
  });

  it('two writers of the same execution at once leave exactly one set of rows', async () => {
    const x = buildExecution();
    await Promise.all(Array.from({ length: 6 }, (_, i) => ingestExecution(db(), { ...x, fetchedAt: later(i) })));
    expect(await countChildren(x.id)).toEqual({ creds: 2, caps: 4, steps: 2, rules: 2 });
  });
});
