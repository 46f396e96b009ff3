import 'server-only';
import { listCaseChanges } from '@/lib/cases/changes';
import { listExecutionChanges } from '@/lib/executions/changes';
import { getExecutionSummary } from '@/lib/executions/summary';
import { listFeedbackStates } from '@/lib/feedback/state-changes';
import { getTrendsData } from '@/lib/trends/queries';
import { defaultGranularity, daysBetween } from '@/lib/trends/shared';
import { ApiProblem, apiOperation, decodeCursor, encodeCursor, parseInput, queryOf } from './http';
import {
  caseChangesQuerySchema,
  type CaseChangesPage,
  changesQuerySchema,
  executionIdParams,
  feedbackQuerySchema,
  trendsQuerySchema,
  type ExecutionChangesPage,
  type FeedbackStatesPage,
  type TrendsBody,
} from './schemas';

/** The read API's operations; `app/api/v1/**` routes export these as their GET handlers. */

export const listExecutionChangesOperation = apiOperation('listExecutionChanges', async ({ req }) => {
  const q = parseInput(changesQuerySchema, queryOf(req));
  const page = await listExecutionChanges({
    after: decodeCursor(q.cursor, 'uuid'),
    since: q.since ? new Date(q.since) : undefined,
    limit: q.limit,
  });
  const body: ExecutionChangesPage = { data: page.items, next: encodeCursor(page.next), hasMore: page.hasMore };
  return { body };
});

export const listCaseChangesOperation = apiOperation('listCaseChanges', async ({ req }) => {
  const q = parseInput(caseChangesQuerySchema, queryOf(req));
  const page = await listCaseChanges({ after: decodeCursor(q.cursor, 'bigint'), limit: q.limit });
  const body: CaseChangesPage = { data: page.items, next: encodeCursor(page.next), hasMore: page.hasMore };
  return { body };
});

export const getExecutionSummaryOperation = apiOperation('getExecutionSummary', async ({ params }) => {
  const { id } = parseInput(executionIdParams, params);
  const summary = await getExecutionSummary(id);
  if (!summary) throw new ApiProblem(404, 'Not found', 'No cached execution has this id.');
  return { body: summary, target: { type: 'execution', id: summary.id } };
});

export const listFeedbackStatesOperation = apiOperation('listFeedbackStates', async ({ req }) => {
  const q = parseInput(feedbackQuerySchema, queryOf(req));
  const page = await listFeedbackStates({
    after: decodeCursor(q.cursor, 'uuid'),
    since: q.since ? new Date(q.since) : undefined,
    executionId: q.executionId?.toLowerCase(),
    limit: q.limit,
  });
  const body: FeedbackStatesPage = { data: page.items, next: encodeCursor(page.next), hasMore: page.hasMore };
  return { body };
});

export const getTrendsOperation = apiOperation('getTrends', async ({ req }) => {
  const q = parseInput(trendsQuerySchema, queryOf(req));
  const granularity = q.granularity ?? defaultGranularity(daysBetween(q.from, q.to));
  const t = await getTrendsData({
    range: 'custom',
    from: q.from,
    to: q.to,
    granularity,
    definitionKey: q.definitionKey,
    country: q.country,
    docType: q.docType,
  });
  const body: TrendsBody = {
    from: q.from,
    to: q.to,
    granularity,
    filters: { definitionKey: q.definitionKey ?? null, country: q.country ?? null, docType: q.docType ?? null },
    kpis: t.kpis,
    buckets: t.buckets.map((b, i) => ({
      from: b.from,
      to: b.to,
      total: t.decisions[i]?.total ?? 0,
      decisions: t.decisions[i]?.counts ?? {},
      fraud: t.fraud[i]?.fraud ?? 0,
      notFraud: t.fraud[i]?.notFraud ?? 0,
      riskScored: t.riskOverTime[i]?.n ?? 0,
      riskSum: t.riskOverTime[i]?.sum ?? 0,
      partial: b.partial === true,
    })),
    alerts: t.alerts.map((a) => ({
      day: a.day,
      kind: a.kind,
      ...(a.capability ? { capability: a.capability } : {}),
      ...(a.decisionType ? { decisionType: a.decisionType } : {}),
      ...(a.label ? { label: a.label } : {}),
      n: a.n,
      total: a.total,
      rate: a.rate,
    })),
    asOf: t.asOf,
  };
  return { body };
});

/** Any other path under /api/v1/: still behind the key, so the API's shape is not probed for free. */
export const notFoundOperation = apiOperation('notFound', async () => {
  throw new ApiProblem(404, 'Not found', 'No such operation; the operations are listed in /api/v1/openapi.json.');
});
