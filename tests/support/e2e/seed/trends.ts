import { createDb } from '@/lib/db/client';
import { ingestMany } from '@/lib/sync/ingest';
import { E2E_TRENDS_WAVE_WORKFLOW, E2E_TRENDS_WORKFLOW, trendExecution } from '../../fixtures/trends';

/**
 * Seeds executions for the trends browser test, through ingest (so the rollup is kept as in
 * production): for each of the last 60 days, two PASSED, one WARNING and one REJECTED (BLURRED,
 * a matched rule); every fifth day one more NOT_EXECUTED (-1), every third rejection FRAUD.
 * Plus a second workflow with a spike of rejections.
 */
export default async function seedTrends(databaseUrl: string) {
  const db = createDb(databaseUrl, 2);
  try {
    const today = new Date();
    const inputs = [];
    for (let d = 0; d < 60; d++) {
      const day = new Date(
        Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - d, 9),
      ).toISOString();
      const base = {
        createdAt: day,
        definitionKey: E2E_TRENDS_WORKFLOW,
        country: d % 2 ? 'DEU' : 'FRA',
        docType: 'PASSPORT',
      };
      const specs = [
        { ...base, decision: 'PASSED', score: 5 + (d % 20) },
        { ...base, decision: 'PASSED', score: 12, docType: 'ID_CARD' },
        {
          ...base,
          decision: 'WARNING',
          score: 45,
          problems: [{ capability: 'similarity', type: 'WARNING', label: 'NOT_POSSIBLE' }],
        },
        {
          ...base,
          decision: 'REJECTED',
          score: 88,
          problems: [{ capability: 'usability', type: 'REJECTED', label: 'BLURRED' }],
          rules: [{ id: 'e2e-rule-velocity', name: 'Velocity of attempts' }],
          feedback: d % 3 === 0 ? { status: 'FRAUD', reason: 'IDENTITY_FRAUD' } : undefined,
        },
        ...(d % 5 === 0 ? [{ ...base, decision: 'NOT_EXECUTED', score: -1 }] : []),
      ];
      for (const s of specs) inputs.push({ ...trendExecution(s), fetchedAt: new Date() });
    }
    // Another workflow with an attack wave three days ago: 20 a day with one or two rejections
    // (BLURRED) for 19 days, then 15 of 25 rejected. The reject rate and the label both spike.
    for (let d = 3; d <= 22; d++) {
      const day = (h: number) =>
        new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - d, h)).toISOString();
      const total = d === 3 ? 25 : 20;
      const rejected = d === 3 ? 15 : 1 + (d % 2);
      for (let i = 0; i < total; i++) {
        const bad = i < rejected;
        inputs.push({
          ...trendExecution({
            createdAt: day(i % 24),
            definitionKey: E2E_TRENDS_WAVE_WORKFLOW,
            country: 'ESP',
            docType: 'ID_CARD',
            decision: bad ? 'REJECTED' : 'PASSED',
            score: bad ? 80 + (i % 20) : 10 + (i % 15),
            problems: bad ? [{ capability: 'usability', type: 'REJECTED', label: 'BLURRED' }] : [],
          }),
          fetchedAt: new Date(),
        });
      }
    }
    await ingestMany(db, inputs);
    console.log(`[e2e] seeded ${inputs.length} executions for the trends test`);
  } finally {
    await db.$client.end();
  }
}
