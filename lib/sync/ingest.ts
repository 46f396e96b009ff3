import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { inTx } from '@/lib/db/tx';
import {
  capabilityEntries,
  credentials,
  executionLinks,
  executions,
  ruleExecutions,
  ruleResults,
  steps as stepsTable,
} from '@/lib/db/schema';
import { matchCases } from '@/lib/cases/match';
import { IdvParseError } from '@/lib/idv/errors';
import { replaceLinkKeys } from '@/lib/rings/upkeep';
import { toRows, UUID, type ExecutionRows, type IngestInput, type IngestOutcome } from './map';
import { applyRollupChanges, rollupOf } from './rollup';
import { dedupeLinks, insertChildren, upsertExecutions } from './write';

/**
 * The one mapping from the service's JSON (R2 result, R7 steps, R8 rule executions) to the
 * cache's rows, and the one way to write them. Every writer (callback fetch, backfill, refresh,
 * benchmarks, test fixtures) goes through `ingestMany` / `ingestExecution`.
 *
 * Guarantees: idempotent (an identical re-fetch writes nothing), an older response never
 * overwrites a newer one (fetch time and status rank only move forward), all rows of one
 * execution are replaced together in one transaction, and unknown values are kept as text.
 */

const prepared = new WeakMap<IngestInput, ExecutionRows>();
/**
 * Maps an input ahead of its write, so that ingest of that same input object reuses the rows:
 * a backfill maps the pages it prefetches while the database writes the current one, instead
 * of inside the page's transaction. An unusable input is left for ingest to report. The rows
 * carry no write time (updated_at is the transaction's), so mapping early changes nothing.
 */
export function prepareInput(input: IngestInput): void {
  try {
    prepared.set(input, toRows(input));
  } catch {
    // ingestMany throws the same error when it maps the input again.
  }
}

/**
 * Writes many executions in one transaction with a handful of statements per table: the path
 * of backfills and benchmarks. Returns one outcome per input, in order. An input that cannot
 * be parsed throws before anything is written.
 */
export async function ingestMany(
  dbOrTx: DbOrTx,
  inputs: IngestInput[],
): Promise<Array<{ id: string; outcome: IngestOutcome }>> {
  if (!inputs.length) return [];
  // Mapped before the transaction: an unusable input fails the batch before anything is written.
  const mapped = inputs.map((input) => ({ input, rows: prepared.get(input) ?? toRows(input) }));
  for (const m of mapped) {
    if (!UUID.test(m.rows.execution.id!))
      throw new IdvParseError('workflow execution result', [
        { code: 'custom', path: ['workflow', 'id'], message: 'must be a UUID', input: undefined },
      ]);
    if (!UUID.test(m.rows.execution.accountId!))
      throw new IdvParseError('workflow execution result', [
        { code: 'custom', path: ['account', 'id'], message: 'must be a UUID', input: undefined },
      ]);
  }
  const ids = [...new Set(mapped.map((m) => m.rows.execution.id!))].sort();

  return inTx(dbOrTx, async (tx) => {
    // Serialize writers of the same execution (a callback fetch racing a backfill page).
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(x)) from unnest(string_to_array(${ids.join(',')}, ',')) as x order by x`,
    );
    const existingRows = await tx
      .select({
        id: executions.id,
        createdAt: executions.createdAt,
        status: executions.status,
        statusRank: executions.statusRank,
        decisionType: executions.decisionType,
        decisionLabel: executions.decisionLabel,
        riskScore: executions.riskScore,
        definitionKey: executions.definitionKey,
        issuingCountry: executions.issuingCountry,
        documentType: executions.documentType,
        feedbackStatus: executions.feedbackStatus,
        feedbackReason: executions.feedbackReason,
        capabilityTags: executions.capabilityTags,
        fetchedAt: executions.fetchedAt,
        contentHash: executions.contentHash,
        personalDataPurgedAt: executions.personalDataPurgedAt,
        goneAt: executions.goneAt,
      })
      .from(executions)
      .where(inArray(executions.id, ids));
    const existing = new Map(existingRows.map((r) => [r.id, r]));
    const matchedBefore = new Map<string, string[]>();
    if (existingRows.length) {
      const rr = await tx
        .selectDistinct({ executionId: ruleResults.executionId, ruleId: ruleResults.ruleId })
        .from(ruleResults)
        .where(
          and(
            inArray(
              ruleResults.executionId,
              existingRows.map((r) => r.id),
            ),
            eq(ruleResults.matched, true),
          ),
        );
      for (const r of rr) matchedBefore.set(r.executionId, [...(matchedBefore.get(r.executionId) ?? []), r.ruleId]);
    }

    const outcomes: Array<{ id: string; outcome: IngestOutcome }> = [];
    const winners = new Map<string, ExecutionRows>();
    // Later duplicates of one id in the same batch are judged like later batches: newest fetch wins.
    for (const m of mapped) {
      const id = m.rows.execution.id!;
      const prev = existing.get(id);
      // Retention wins over a re-fetch: purged personal data is not brought back.
      const rows = prev?.personalDataPurgedAt ? toRows(m.input, { personalData: false }) : m.rows;
      const current = winners.get(id);
      const ref = current
        ? {
            fetchedAt: current.execution.fetchedAt ?? null,
            statusRank: current.execution.statusRank ?? 0,
            contentHash: current.execution.contentHash ?? null,
          }
        : prev
          ? { fetchedAt: prev.fetchedAt, statusRank: prev.statusRank, contentHash: prev.contentHash }
          : null;
      if (
        ref &&
        ((ref.fetchedAt && ref.fetchedAt > m.input.fetchedAt) || ref.statusRank > (rows.execution.statusRank ?? 0))
      ) {
        outcomes.push({ id, outcome: 'stale' });
        continue;
      }
      if (ref && ref.contentHash === rows.execution.contentHash && !prev?.goneAt) {
        outcomes.push({ id, outcome: 'unchanged' });
        continue;
      }
      winners.set(id, rows);
      outcomes.push({ id, outcome: prev ? 'updated' : 'inserted' });
    }
    if (!winners.size) return outcomes;

    const all = [...winners.values()];
    // Children are replaced as a whole; steps and rules only when the input carried them. A new
    // execution has none (they cascade with it), so a first backfill deletes nothing.
    const replaced = all.filter((r) => existing.has(r.execution.id!));
    const deletes: SQL[] = [];
    const deleteOf = (
      table:
        | typeof credentials
        | typeof capabilityEntries
        | typeof executionLinks
        | typeof stepsTable
        | typeof ruleResults
        | typeof ruleExecutions,
      ids: string[],
    ) => {
      if (ids.length)
        deletes.push(
          sql`${sql.identifier(`del_${deletes.length}`)} as (delete from ${table} where ${table.executionId} = any(${sql.param(ids)}::uuid[]))`,
        );
    };
    const replacedIds = replaced.map((r) => r.execution.id!);
    deleteOf(credentials, replacedIds);
    deleteOf(capabilityEntries, replacedIds);
    deleteOf(executionLinks, replacedIds);
    deleteOf(
      stepsTable,
      replaced.filter((r) => r.steps !== null).map((r) => r.execution.id!),
    );
    const withRules = replaced.filter((r) => r.ruleExecutions !== null).map((r) => r.execution.id!);
    deleteOf(ruleResults, withRules);
    deleteOf(ruleExecutions, withRules);
    // One statement for all deletes (data-modifying CTEs on different tables).
    if (deletes.length) await tx.execute(sql`with ${sql.join(deletes, sql`, `)} select 1`);

    const children = insertChildren([
      [credentials, all.flatMap((r) => r.credentials)],
      [capabilityEntries, all.flatMap((r) => r.capabilityEntries)],
      [executionLinks, dedupeLinks(all.flatMap((r) => r.links))],
      [stepsTable, all.flatMap((r) => r.steps ?? [])],
      [ruleExecutions, all.flatMap((r) => r.ruleExecutions ?? [])],
      [ruleResults, all.flatMap((r) => r.ruleResults ?? [])],
    ]);
    // Executions and their children in one statement: the children's foreign keys are checked
    // at its end, when the execution rows are there.
    await tx.execute(
      sql`with ${sql.join([...upsertExecutions(all.map((r) => r.execution)), ...children.steps], sql`, `)} select 1`,
    );
    await children.others(tx);

    // The trends rollup follows every change in the same transaction, wherever ingest runs.
    const changes = all.map((r) => {
      const id = r.execution.id!;
      const prev = existing.get(id);
      return {
        before: prev ? rollupOf(prev, matchedBefore.get(id) ?? []) : null,
        after: rollupOf(r.execution, r.matchedRuleIds ?? matchedBefore.get(id) ?? []),
      };
    });
    await applyRollupChanges(
      tx,
      changes,
      all.flatMap((r) =>
        (r.ruleResults ?? []).filter((x) => x.matched).map((x) => [x.ruleId, x.ruleName ?? null] as const),
      ),
    );
    // Rings follow too: the shared values of every written execution, and the components they join.
    await replaceLinkKeys(
      tx,
      [...winners.keys()],
      all.flatMap((r) => r.linkKeys),
    );
    // Case work follows too: a new or changed execution gets (or keeps, or changes) its queue.
    await matchCases(tx, [...winners.keys()]);
    return outcomes;
  });
}

export async function ingestExecution(
  dbOrTx: DbOrTx,
  input: IngestInput,
): Promise<{ id: string; outcome: IngestOutcome }> {
  const [r] = await ingestMany(dbOrTx, [input]);
  return r;
}
