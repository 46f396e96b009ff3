// The simulator's OpenAPI 3.1 document, generated from its own zod schemas (schemas.ts for
// requests, response-schemas.ts for answers) by @asteasolutions/zod-to-openapi and served at
// GET /openapi.json on its base URL. It imports nothing else of lib/: the simulator stays an
// independent oracle of the spec.
import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  accountResponseSchema,
  accountSchema,
  callbackAttemptsSchema,
  credentialOperationSchema,
  deletedAccountSchema,
  deletedExecutionSchema,
  executionListSchema,
  executionResultSchema,
  feedbackResponseSchema,
  finalizeSchema,
  healthSchema,
  problemSchema,
  reportLinkSchema,
  rulesSchema,
  sdkCaptureSchema,
  sdkStateSchema,
  statsSchema,
  statusSchema,
  stepsSchema,
  tokenSchema,
} from './response-schemas';
import {
  accountRequestSchema,
  faultKnobsSchema,
  faultPatchSchema,
  feedbackSchema,
  preparedDataSchema,
} from './schemas';

const json = (schema: z.ZodType, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});
const binary = (types: string[], description: string) => ({
  description,
  content: Object.fromEntries(
    types.map((t) => [t, { schema: z.string().meta({ contentMediaType: t, description: 'The file bytes.' }) }]),
  ),
});
const ERROR_TEXT: Record<number, string> = {
  400: 'Bad input; the detail names the field and the rule.',
  401: 'Missing, wrong or expired token, or the wrong kind of token.',
  403: 'A token of another execution or credential, a channel the credential does not allow, or no consent.',
  404: 'Unknown or deleted.',
  405: 'Wrong method; `Allow` lists the right ones.',
  413: 'Body too large.',
  429: 'Rate limit; wait for `Retry-After` seconds.',
  503: 'Service unavailable (the `errorRate` fault).',
};
const errors = (...codes: number[]) =>
  Object.fromEntries(codes.map((c) => [c, json(problemSchema, `${ERROR_TEXT[c]} \`{title, status, detail}\`.`)]));
/** Every service operation may meet the rate limit and the injected 503. */
const serviceErrors = (...codes: number[]) => errors(...codes, 429, 503);

const a = z.uuid().meta({ description: 'Account id' });
const w = z.uuid().meta({ description: 'Workflow execution id' });
const c = z.uuid().meta({ description: 'Credential id' });
const imageClassifier = z.enum(['FRONT', 'BACK', 'FACE']).meta({ description: 'Case-insensitive.' });
const userAgent = z.object({ 'User-Agent': z.string().min(1) });
const EXEC = '/api/v1/accounts/{accountId}/workflow-executions/{workflowExecutionId}';
const CRED = `${EXEC}/credentials/{credentialId}`;
const execParams = z.object({ accountId: a, workflowExecutionId: w });
const credParams = execParams.extend({ credentialId: c });
const multipart = (description: string) => ({
  content: {
    'multipart/form-data': {
      schema: z.object({
        file: z
          .union([z.string().meta({ contentMediaType: 'application/octet-stream' }), z.array(z.string())])
          .meta({ description }),
      }),
    },
  },
});

let cached: object | null = null;

/** Every operation of the service (T, A1-A2, C1-C7, R1-R12), health, the report file, the web page, the SDK path and the test tools. */
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
  const sdkToken = r.registerComponent('securitySchemes', 'sdkToken', {
    type: 'http',
    scheme: 'bearer',
    description: "The execution's SDK token from the account response (`sdk.token`).",
  });
  const byAccess = [{ [bearer.name]: [] }];
  const byTransaction = [{ [transaction.name]: [] }];
  const byClient = [{ [basic.name]: [] }];
  const op = (config: RouteConfig) => r.registerPath(config);

  op({
    method: 'get',
    path: '/',
    operationId: 'health',
    summary: 'Health of the service',
    responses: { 200: json(healthSchema, 'Status per component.') },
  });
  op({
    method: 'post',
    path: '/oauth2/token',
    operationId: 'T',
    summary: 'T: obtain an access token (client credentials)',
    security: byClient,
    request: {
      body: {
        content: {
          'application/x-www-form-urlencoded': { schema: z.object({ grant_type: z.literal('client_credentials') }) },
        },
      },
    },
    responses: { 200: json(tokenSchema, 'An access token.'), ...errors(400, 401, 413, 429) },
  });

  const accountRequest = accountRequestSchema.meta({ id: 'AccountRequest' });
  op({
    method: 'post',
    path: '/api/v1/accounts',
    operationId: 'A1',
    summary: 'A1: create an account and its first workflow execution',
    security: byAccess,
    request: { headers: userAgent, body: { content: { 'application/json': { schema: accountRequest } } } },
    responses: { 200: json(accountResponseSchema, 'The account and execution.'), ...serviceErrors(400, 401, 413) },
  });
  op({
    method: 'put',
    path: '/api/v1/accounts/{accountId}',
    operationId: 'A2',
    summary: 'A2: a new workflow execution on an existing account',
    security: byAccess,
    request: {
      params: z.object({ accountId: a }),
      headers: userAgent,
      body: { content: { 'application/json': { schema: accountRequest } } },
    },
    responses: {
      200: json(accountResponseSchema, 'The account and execution.'),
      ...serviceErrors(400, 401, 404, 413),
    },
  });
  op({
    method: 'get',
    path: '/api/v1/accounts/{accountId}',
    operationId: 'R9',
    summary: 'R9: the account and its workflow executions, newest first',
    security: byAccess,
    request: { params: z.object({ accountId: a }) },
    responses: { 200: json(accountSchema, 'The account.'), ...serviceErrors(400, 401, 404) },
  });
  op({
    method: 'delete',
    path: '/api/v1/accounts/{accountId}',
    operationId: 'R10',
    summary: 'R10: delete the account and all its executions',
    security: byAccess,
    request: { params: z.object({ accountId: a }) },
    responses: { 200: json(deletedAccountSchema, 'Deleted.'), ...serviceErrors(400, 401, 404) },
  });

  // C1-C7: credential operations with the transaction token.
  const credentialOp = json(credentialOperationSchema, 'The credential after the operation.');
  const credErrors = serviceErrors(400, 401, 403, 404, 405, 413);
  for (const [method, id, verb] of [
    ['put', 'C1', 'replace'],
    ['post', 'C2', 'add'],
  ] as const)
    op({
      method,
      path: `${CRED}/parts/{classifier}`,
      operationId: id,
      summary: `${id}: ${verb} an image part (JPEG or PNG)`,
      security: byTransaction,
      request: {
        params: credParams.extend({ classifier: imageClassifier }),
        body: multipart('One JPEG or PNG image.'),
      },
      responses: { 200: credentialOp, ...credErrors },
    });
  op({
    method: 'delete',
    path: `${CRED}/parts/{classifier}`,
    operationId: 'C6',
    summary: 'C6: delete one part (irreversible)',
    security: byTransaction,
    request: {
      params: credParams.extend({
        classifier: z.enum(['FRONT', 'BACK', 'FACE', 'PREPARED_DATA', 'DOCUMENT']).meta({
          description: 'Case-insensitive.',
        }),
      }),
    },
    responses: { 200: credentialOp, ...credErrors },
  });
  op({
    method: 'post',
    path: `${CRED}/parts/PREPARED_DATA`,
    operationId: 'C3',
    summary: 'C3: upload prepared data to a DATA credential',
    security: byTransaction,
    request: {
      params: credParams,
      body: { content: { 'application/json': { schema: preparedDataSchema.meta({ id: 'PreparedData' }) } } },
    },
    responses: { 200: credentialOp, ...credErrors },
  });
  op({
    method: 'post',
    path: `${CRED}/parts/DOCUMENT`,
    operationId: 'C4',
    summary: 'C4: upload a document (images, or one PDF)',
    security: byTransaction,
    request: { params: credParams, body: multipart('Page images (JPEG, PNG) or one PDF; `file` may repeat.') },
    responses: { 200: credentialOp, ...credErrors },
  });
  op({
    method: 'delete',
    path: CRED,
    operationId: 'C7',
    summary: 'C7: delete all parts of a credential (irreversible)',
    security: byTransaction,
    request: { params: credParams },
    responses: { 200: credentialOp, ...credErrors },
  });
  op({
    method: 'put',
    path: EXEC,
    operationId: 'C5',
    summary: 'C5: finalize and start the workflow',
    security: byTransaction,
    request: { params: execParams },
    responses: { 200: json(finalizeSchema, 'Processing started.'), ...credErrors },
  });

  // R1-R12: retrieval with the access token.
  const retrievalErrors = serviceErrors(400, 401, 404);
  const retrieval = (method: 'get' | 'delete', path: string, id: string, summary: string, ok: z.ZodType) =>
    op({
      method,
      path,
      operationId: id,
      summary: `${id}: ${summary}`,
      security: byAccess,
      request: { params: path.startsWith(EXEC) ? execParams : z.object({ workflowExecutionId: w }) },
      responses: { 200: json(ok, 'Success.'), ...retrievalErrors },
    });
  retrieval('get', EXEC, 'R2', 'the workflow execution result', executionResultSchema);
  retrieval('delete', EXEC, 'R3', "delete one execution's personal data and images", deletedExecutionSchema);
  const byId = '/api/v1/workflow-executions/{workflowExecutionId}';
  retrieval('get', byId, 'R4', 'the execution by id alone (the callback link)', executionResultSchema);
  retrieval('get', `${EXEC}/status`, 'R5', 'the workflow status', statusSchema);
  retrieval('get', `${EXEC}/generate`, 'R6', 'a link to the PDF report', reportLinkSchema);
  retrieval('get', `${EXEC}/steps`, 'R7', 'the workflow steps', stepsSchema);
  retrieval('get', `${EXEC}/rules`, 'R8', 'the rule executions', rulesSchema);
  op({
    method: 'put',
    path: `${EXEC}/feedback`,
    operationId: 'R11',
    summary: 'R11: send FRAUD / NOT_FRAUD feedback on an execution',
    security: byAccess,
    request: {
      params: execParams,
      body: { content: { 'application/json': { schema: feedbackSchema.meta({ id: 'Feedback' }) } } },
    },
    responses: { 200: json(feedbackResponseSchema, 'The feedback was recorded.'), ...retrievalErrors },
  });
  op({
    method: 'get',
    path: '/api/v1/accounts/{accountId}/credentials/{credentialId}/parts/{classifier}',
    operationId: 'R1',
    summary: 'R1: the content of an image part (DOCUMENT: the first page of a document)',
    security: byAccess,
    request: {
      params: z.object({
        accountId: a,
        credentialId: c,
        classifier: z.enum(['FRONT', 'BACK', 'FACE', 'DOCUMENT']).meta({ description: 'Case-insensitive.' }),
      }),
    },
    responses: {
      200: binary(['image/jpeg', 'image/png', 'application/pdf'], 'The bytes.'),
      ...retrievalErrors,
    },
  });
  op({
    method: 'get',
    path: '/api/v1/workflow-executions',
    operationId: 'R12',
    summary: 'R12: workflow executions, newest first',
    security: byAccess,
    request: {
      query: z.object({
        size: z.coerce.number().int().min(1).max(100).default(50),
        page: z.coerce.number().int().min(1).default(1),
      }),
    },
    responses: { 200: json(executionListSchema, 'One page.'), ...serviceErrors(400, 401) },
  });
  op({
    method: 'get',
    path: '/reports/{file}',
    operationId: 'reportFile',
    summary: 'The PDF behind an R6 link (signed, expires after 15 minutes)',
    request: {
      params: z.object({ file: z.string().meta({ description: '`<workflowExecutionId>.pdf`' }) }),
      query: z.object({ expires: z.string(), signature: z.string() }),
    },
    responses: { 200: binary(['application/pdf'], 'The report.'), ...errors(403, 404) },
  });

  // The web client and the SDK (spec, What the service does 4): the simulator's own, since the
  // spec shows neither the web client nor the SDK's wire format.
  const page = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });
  const pageErrors = {
    400: page('A form error (the page again, errors listed and linked to their fields), or a malformed address.'),
    401: page('The token in the address is missing, wrong or expired.'),
    403: page('A token of another execution.'),
    404: page('The execution is unknown or deleted.'),
  };
  op({
    method: 'get',
    path: '/web/{workflowExecutionId}',
    operationId: 'webPage',
    summary: 'The web capture page (`web.href` of the account response)',
    tags: ['web and SDK'],
    request: {
      params: z.object({ workflowExecutionId: w }),
      query: z.object({ token: z.string().meta({ description: 'The web token, as in `web.href`.' }) }),
    },
    responses: { 200: page('What each WEB credential still needs, and the consent.'), ...pageErrors },
  });
  op({
    method: 'post',
    path: '/web/{workflowExecutionId}',
    operationId: 'webCapture',
    summary: 'Send the page: pictures and consent; the execution starts by itself once complete',
    tags: ['web and SDK'],
    request: {
      params: z.object({ workflowExecutionId: w }),
      body: {
        content: {
          'multipart/form-data': {
            schema: z
              .object({ token: z.string(), consent: z.literal('yes').optional() })
              .catchall(z.string().meta({ contentMediaType: 'application/octet-stream' }))
              .meta({
                description:
                  'One file field per part, named `<credentialId>:<classifier>` (FRONT, BACK, FACE, FACEMAP, DOCUMENT).',
              }),
          },
        },
      },
    },
    responses: {
      303: {
        description: 'Received: back to the page, or to `web.successUrl` when this completed the execution.',
        headers: z.object({ Location: z.string() }),
      },
      ...pageErrors,
      413: page('The pictures are too large together.'),
    },
  });
  const sdkParams = z.object({ workflowExecutionId: w });
  op({
    method: 'get',
    path: '/sdk/v1/workflow-executions/{workflowExecutionId}',
    operationId: 'sdkState',
    summary: 'SDK: what to capture, and what is already in',
    tags: ['web and SDK'],
    security: [{ [sdkToken.name]: [] }],
    request: { params: sdkParams },
    responses: { 200: json(sdkStateSchema, 'The execution as the app sees it.'), ...serviceErrors(400, 401, 403, 404) },
  });
  op({
    method: 'post',
    path: '/sdk/v1/workflow-executions/{workflowExecutionId}/credentials/{credentialId}/parts/{classifier}',
    operationId: 'sdkCapture',
    summary: 'SDK: send one capture; the execution starts by itself once complete',
    tags: ['web and SDK'],
    security: [{ [sdkToken.name]: [] }],
    request: {
      params: sdkParams.extend({
        credentialId: c,
        classifier: z.enum(['FRONT', 'BACK', 'FACE', 'FACEMAP', 'DOCUMENT']).meta({ description: 'Case-insensitive.' }),
      }),
      headers: z.object({
        'X-Sdk-Platform': z.string().optional().meta({ description: 'captureClient.platform (kept as sent).' }),
        'X-Sdk-Version': z.string().optional().meta({ description: 'captureClient.version.' }),
        'X-Sdk-Os-Name': z.string().optional().meta({ description: 'captureClient.osName.' }),
      }),
      body: {
        content: {
          'multipart/form-data': {
            schema: z.object({
              file: z.string().meta({ contentMediaType: 'application/octet-stream' }),
              consent: z
                .literal('yes')
                .optional()
                .meta({ description: 'Required with the first capture unless the account request carried consent.' }),
              captureMode: z
                .string()
                .optional()
                .meta({ description: 'auto_capture (default), manual_capture, upload, or another lower-case word.' }),
            }),
          },
        },
      },
    },
    responses: {
      200: json(sdkCaptureSchema, 'The capture was kept.'),
      ...serviceErrors(400, 401, 403, 404),
    },
  });

  // Test tools of the simulator (not of the real service): HTTP Basic with the client credentials.
  const tool = (
    method: 'get' | 'put' | 'post',
    path: string,
    id: string,
    summary: string,
    ok: RouteConfig['responses'][number],
    body?: z.ZodType,
  ) =>
    op({
      method,
      path,
      operationId: id,
      summary,
      tags: ['test tools'],
      security: byClient,
      ...(body ? { request: { body: { content: { 'application/json': { schema: body } } } } } : {}),
      responses: { 200: ok, ...errors(...(body ? [400, 401] : [401])) },
    });
  tool('get', '/__sim/faults', 'getFaults', 'The fault knobs', json(faultKnobsSchema, 'All knobs.'));
  tool(
    'put',
    '/__sim/faults',
    'setFaults',
    'Change fault knobs',
    json(faultKnobsSchema, 'All knobs after the change.'),
    faultPatchSchema,
  );
  tool(
    'post',
    '/__sim/reset',
    'reset',
    'Clear API-made data, callbacks, limits and faults',
    json(z.object({ reset: z.literal(true) }), 'Reset.'),
  );
  tool(
    'get',
    '/__sim/callbacks',
    'callbacks',
    'Every callback attempt so far',
    json(callbackAttemptsSchema, 'Oldest first.'),
  );
  tool('get', '/__sim/stats', 'stats', 'Request counts and rates', json(statsSchema, 'Counters.'));
  tool(
    'post',
    '/__sim/sweep',
    'sweep',
    'Run expiry, processing and retention now',
    json(z.object({ swept: z.literal(true) }), 'Swept.'),
  );

  cached = new OpenApiGeneratorV31(r.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Identity verification service (simulator)',
      version: '1.0.0',
      description:
        'Every operation of ../shared/spec/identity-verification-service.md as the simulator serves it, with its test ' +
        'tools. Where the spec lists only the values seen (credential categories, channels, document types, ' +
        'prepared-data members, statuses, decision types), other values are accepted and kept.',
    },
  });
  return cached;
}
