// The simulator's OpenAPI 3.1 document, generated from its own zod schemas (schemas.ts) by
// @asteasolutions/zod-to-openapi and served at GET /openapi.json on its base URL. It imports
// nothing else of lib/: the simulator stays an independent oracle of the spec.
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { FEEDBACK_REASONS, FEEDBACK_STATUSES } from './catalog';
import { accountRequestSchema, feedbackSchema, preparedDataSchema } from './schemas';

const problem = z
  .object({ title: z.string(), status: z.int(), detail: z.string() })
  .meta({ id: 'Problem', description: 'Every error of the service: `{title, status, detail}`.' });

const healthResponse = z
  .object({ status: z.enum(['UP', 'DEGRADED']), details: z.record(z.string(), z.enum(['UP', 'DEGRADED'])) })
  .meta({ id: 'Health' });

const tokenResponse = z
  .object({ access_token: z.string(), expires_in: z.int(), token_type: z.literal('Bearer') })
  .meta({ id: 'AccessToken' });

const ref = z.object({ id: z.uuid() });
const countryOrType = z.object({ predefinedType: z.string().optional(), values: z.array(z.string()) });

const credentialEntry = z
  .object({
    id: z.uuid(),
    category: z.string().meta({ description: 'ID, SELFIE, FACEMAP, DATA, DOCUMENT seen; other values kept.' }),
    label: z.string(),
    country: countryOrType.optional(),
    type: countryOrType.optional(),
    allowedChannels: z.array(z.string()),
    api: z
      .object({
        token: z.string(),
        parts: z.record(z.string(), z.url()),
        workflowExecution: z.url(),
      })
      .optional()
      .meta({ description: 'Only for credentials that allow the API channel.' }),
  })
  .meta({ id: 'CredentialEntry' });

const accountResponse = z
  .object({
    timestamp: z.iso.datetime(),
    account: ref,
    web: z.object({ href: z.url(), successUrl: z.string().optional(), errorUrl: z.string().optional() }).loose(),
    sdk: z.object({ token: z.string() }),
    workflowExecution: z.object({ id: z.uuid(), credentials: z.array(credentialEntry) }),
  })
  .meta({ id: 'AccountResponse' });

const credentialOperationResponse = z
  .object({
    timestamp: z.iso.datetime(),
    account: ref,
    workflowExecution: ref,
    credential: ref,
    part: ref.optional(),
    api: z.object({ token: z.string(), parts: z.record(z.string(), z.unknown()) }),
  })
  .meta({ id: 'CredentialOperationResponse' });

const feedbackResponse = z
  .object({
    timestamp: z.iso.datetime(),
    workflowExecution: ref,
    feedback: z.object({ status: z.enum(FEEDBACK_STATUSES), reason: z.enum(FEEDBACK_REASONS).optional() }).loose(),
  })
  .meta({ id: 'FeedbackResponse' });

let cached: object | null = null;

/**
 * The operations whose bodies the simulator validates with zod (T, A1, A2, C3, R11) and health.
 * Image and document uploads, the retrieval operations and the test tools are not in it yet.
 */
export function simulatorDocument(): object {
  if (cached) return cached;
  const r = new OpenAPIRegistry();
  const basic = r.registerComponent('securitySchemes', 'clientCredentials', { type: 'http', scheme: 'basic' });
  const bearer = r.registerComponent('securitySchemes', 'accessToken', { type: 'http', scheme: 'bearer' });
  const transaction = r.registerComponent('securitySchemes', 'transactionToken', {
    type: 'http',
    scheme: 'bearer',
    description: "The execution's transaction token from the account response (`api.token`).",
  });
  const json = (schema: z.ZodType, description: string) => ({
    description,
    content: { 'application/json': { schema } },
  });
  const errors = (...codes: number[]) =>
    Object.fromEntries(codes.map((c) => [c, json(problem, `Error ${c}: {title, status, detail}.`)]));
  const userAgent = z.object({ 'User-Agent': z.string().min(1) });
  const a = z.uuid().meta({ description: 'Account id' });
  const w = z.uuid().meta({ description: 'Workflow execution id' });

  r.registerPath({
    method: 'get',
    path: '/',
    operationId: 'health',
    summary: 'Health of the service',
    responses: { 200: json(healthResponse, 'Status per component.') },
  });
  r.registerPath({
    method: 'post',
    path: '/oauth2/token',
    operationId: 'T',
    summary: 'T: obtain an access token (client credentials)',
    security: [{ [basic.name]: [] }],
    request: {
      body: {
        content: {
          'application/x-www-form-urlencoded': { schema: z.object({ grant_type: z.literal('client_credentials') }) },
        },
      },
    },
    responses: { 200: json(tokenResponse, 'An access token.'), ...errors(400, 401, 413, 429) },
  });
  r.registerPath({
    method: 'post',
    path: '/api/v1/accounts',
    operationId: 'A1',
    summary: 'A1: create an account and its first workflow execution',
    security: [{ [bearer.name]: [] }],
    request: {
      headers: userAgent,
      body: { content: { 'application/json': { schema: accountRequestSchema.meta({ id: 'AccountRequest' }) } } },
    },
    responses: { 200: json(accountResponse, 'The account and execution.'), ...errors(400, 401, 413, 429) },
  });
  r.registerPath({
    method: 'put',
    path: '/api/v1/accounts/{accountId}',
    operationId: 'A2',
    summary: 'A2: a new workflow execution on an existing account',
    security: [{ [bearer.name]: [] }],
    request: {
      params: z.object({ accountId: a }),
      headers: userAgent,
      body: { content: { 'application/json': { schema: accountRequestSchema } } },
    },
    responses: { 200: json(accountResponse, 'The account and execution.'), ...errors(400, 401, 404, 413, 429) },
  });
  r.registerPath({
    method: 'post',
    path: '/api/v1/accounts/{accountId}/workflow-executions/{workflowExecutionId}/credentials/{credentialId}/parts/PREPARED_DATA',
    operationId: 'C3',
    summary: 'C3: upload prepared data to a DATA credential',
    security: [{ [transaction.name]: [] }],
    request: {
      params: z.object({ accountId: a, workflowExecutionId: w, credentialId: z.uuid() }),
      body: { content: { 'application/json': { schema: preparedDataSchema.meta({ id: 'PreparedData' }) } } },
    },
    responses: { 200: json(credentialOperationResponse, 'The part was stored.'), ...errors(400, 401, 403, 404, 413) },
  });
  r.registerPath({
    method: 'put',
    path: '/api/v1/accounts/{accountId}/workflow-executions/{workflowExecutionId}/feedback',
    operationId: 'R11',
    summary: 'R11: send FRAUD / NOT_FRAUD feedback on an execution',
    security: [{ [bearer.name]: [] }],
    request: {
      params: z.object({ accountId: a, workflowExecutionId: w }),
      body: { content: { 'application/json': { schema: feedbackSchema.meta({ id: 'Feedback' }) } } },
    },
    responses: { 200: json(feedbackResponse, 'The feedback was recorded.'), ...errors(400, 401, 404, 429) },
  });

  cached = new OpenApiGeneratorV31(r.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Identity verification service (simulator)',
      version: '1.0.0',
      description:
        'The operations of ../shared/spec/identity-verification-service.md whose bodies the simulator validates. ' +
        'Where the spec lists only the values seen (credential categories, document types, prepared-data members), ' +
        'other values are accepted.',
    },
  });
  return cached;
}
