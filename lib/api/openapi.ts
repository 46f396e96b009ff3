import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  caseChangesPageSchema,
  caseChangesQuerySchema,
  changesQuerySchema,
  executionChangesPageSchema,
  executionIdParams,
  executionSummarySchema,
  feedbackQuerySchema,
  feedbackStatesPageSchema,
  problemSchema,
  trendsQuerySchema,
  trendsSchema,
} from './schemas';

/**
 * The OpenAPI 3.1 document of the read API, generated from the zod schemas the handlers use
 * (`lib/api/schemas.ts`) by @asteasolutions/zod-to-openapi. Served at `/api/v1/openapi.json`.
 */

const problemResponse = (description: string, headers?: z.ZodObject) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/problem+json': { schema: problemSchema } },
});

const errors = {
  400: problemResponse('Bad input: the detail names the parameter.'),
  401: problemResponse('Missing, wrong, revoked or expired key.'),
  429: problemResponse(
    'Over the per-key rate limit.',
    z.object({ 'Retry-After': z.string().meta({ description: 'Seconds until the window resets.' }) }),
  ),
  500: problemResponse('Unexpected failure.'),
};

let cached: object | null = null;

export function apiDocument(): object {
  if (cached) return cached;
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key created by an admin under Admin → API keys (`vk_…`).',
  });
  const security = [{ [bearer.name]: [] }];
  const json = (schema: z.ZodType, description: string) => ({
    description,
    content: { 'application/json': { schema } },
  });

  registry.registerPath({
    method: 'get',
    path: '/cases/changes',
    operationId: 'listCaseChanges',
    summary: 'Cases and their outcomes changed since a cursor',
    description:
      'Every change of a case (created, claimed, resolved, escalated, reopened, withdrawn, ...) with the case ' +
      'after it: state, queue, outcome, reason code, resolution time and the acting user id. Start without a ' +
      'cursor, pass `next` until `hasMore` is false, keep the last `next` and ask again later. The order is ' +
      'that of the committing transactions: a change is listed once every transaction that began writing before ' +
      'it has ended, so a change can never appear behind a cursor already handed out.',
    security,
    request: { query: caseChangesQuerySchema },
    responses: { 200: json(caseChangesPageSchema, 'A page of case changes.'), ...errors },
  });
  registry.registerPath({
    method: 'get',
    path: '/executions/changes',
    operationId: 'listExecutionChanges',
    summary: 'Executions and their outcomes changed since a cursor',
    description:
      'Cached executions in the order they last changed (decision, status, feedback), oldest first. ' +
      'Start without a cursor (or with `since`), then pass `next` until `hasMore` is false; keep the ' +
      'last `next` and ask again later for what changed since. Like every feed here, a change is listed ' +
      'once every transaction that began writing before it has ended, so none appears behind a cursor ' +
      'already handed out.',
    security,
    request: { query: changesQuerySchema },
    responses: { 200: json(executionChangesPageSchema, 'A page of changes.'), ...errors },
  });
  registry.registerPath({
    method: 'get',
    path: '/executions/{id}',
    operationId: 'getExecutionSummary',
    summary: "One execution's summary, masked",
    description: 'Masked exactly as an analyst without a reveal sees it. The read is audited.',
    security,
    request: { params: executionIdParams },
    responses: {
      200: json(executionSummarySchema, 'The execution.'),
      ...errors,
      404: problemResponse('No cached execution has this id.'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/feedback',
    operationId: 'listFeedbackStates',
    summary: 'Feedback labels and their delivery states, changed since a cursor',
    security,
    request: { query: feedbackQuerySchema },
    responses: { 200: json(feedbackStatesPageSchema, 'A page of feedback states.'), ...errors },
  });
  registry.registerPath({
    method: 'get',
    path: '/trends',
    operationId: 'getTrends',
    summary: 'The trends rollup for a range',
    security,
    request: { query: trendsQuerySchema },
    responses: { 200: json(trendsSchema, 'Counts per bucket, KPIs and spike alerts.'), ...errors },
  });

  cached = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Verdict read API',
      version: '1.0.0',
      description:
        'Read-only access for machines to the review console: case and execution changes, masked summaries, feedback states and trends. ' +
        'Every call needs a key and is audited; errors are problem JSON `{title, status, detail}`.',
    },
    servers: [{ url: '/api/v1' }],
  });
  return cached;
}
