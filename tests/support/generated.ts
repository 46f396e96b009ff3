import { db } from '@/lib/db/client';
import { generateExecution } from '@/lib/simulator';
import { ingestMany } from '@/lib/sync/ingest';

export interface GeneratedDoc {
  result: Record<string, unknown> & { workflow: { id: string } };
  steps: unknown;
  rules: unknown;
}

/**
 * Ingests `count` of the simulator's generated executions (spread over `days` up to now) into
 * the cache, through the sync's own ingest, in pages of 250; returns them with their ids.
 */
export async function ingestGenerated(
  seed: string,
  count: number,
  days: number,
): Promise<{ docs: GeneratedDoc[]; ids: string[] }> {
  const anchor = new Date();
  const docs = Array.from(
    { length: count },
    (_, i) => generateExecution(seed, i, { count, days, anchor }) as unknown as GeneratedDoc,
  );
  for (let i = 0; i < count; i += 250)
    await ingestMany(
      db(),
      docs
        .slice(i, i + 250)
        .map((d) => ({ result: d.result, steps: d.steps, rules: d.rules, fetchedAt: new Date() })) as never,
    );
  return { docs, ids: docs.map((d) => d.result.workflow.id) };
}
