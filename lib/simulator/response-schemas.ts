// The bodies the simulator answers with, as zod schemas, for its OpenAPI document (openapi.ts).
// Objects are loose: the spec shows members "seen", not closed lists, and the real service may
// add members; value sets it leaves open (statuses, decision types, categories, channels) are
// strings, with the values seen in the description. Request bodies are in schemas.ts.
import { z } from 'zod';
import { FEEDBACK_REASONS, FEEDBACK_STATUSES } from '@/lib/spec/vocabulary';

const ts = z.iso.datetime({ offset: true });
const ref = z.looseObject({ id: z.uuid() });
const refHref = z.looseObject({ id: z.uuid(), href: z.url() });
const open = (seen: string) => z.string().meta({ description: `Values seen: ${seen}; other values are kept.` });

export const problemSchema = z
  .looseObject({ title: z.string(), status: z.int(), detail: z.string() })
  .meta({ id: 'Problem', description: 'Every error of the service: `{title, status, detail}`.' });

export const healthSchema = z
  .looseObject({ status: z.enum(['UP', 'DEGRADED']), details: z.record(z.string(), z.enum(['UP', 'DEGRADED'])) })
  .meta({ id: 'Health' });

export const tokenSchema = z
  .looseObject({ access_token: z.string(), expires_in: z.int(), token_type: z.literal('Bearer') })
  .meta({ id: 'AccessToken' });

const countryOrType = z.looseObject({ predefinedType: z.string().optional(), values: z.array(z.string()) });

export const credentialEntrySchema = z
  .looseObject({
    id: z.uuid(),
    category: open('ID, SELFIE, FACEMAP, DATA, DOCUMENT'),
    label: z.string(),
    country: countryOrType.optional(),
    type: countryOrType.optional(),
    allowedChannels: z.array(open('WEB, API, SDK')),
    api: z
      .looseObject({ token: z.string(), parts: z.record(z.string(), z.url()), workflowExecution: z.url() })
      .optional()
      .meta({ description: 'Only for credentials that allow the API channel.' }),
  })
  .meta({ id: 'CredentialEntry' });

export const accountResponseSchema = z
  .looseObject({
    timestamp: ts,
    account: ref,
    web: z.looseObject({ href: z.url() }).meta({
      description:
        'Web-channel data (members not shown by the spec): `href`, the capture page with its token, and the request’s successUrl, errorUrl and locale.',
    }),
    sdk: z.looseObject({ token: z.string() }),
    workflowExecution: z.looseObject({ id: z.uuid(), credentials: z.array(credentialEntrySchema) }),
  })
  .meta({ id: 'AccountResponse' });

export const credentialOperationSchema = z
  .looseObject({
    timestamp: ts,
    account: ref,
    workflowExecution: ref,
    credential: ref,
    part: ref.optional(),
    api: z.looseObject({
      token: z.string(),
      parts: z
        .record(z.string(), z.record(z.string(), z.url()))
        .meta({ description: 'Part name to a map from an index ("1", "2", …) to the part link.' }),
    }),
  })
  .meta({ id: 'CredentialOperationResponse' });

const capturePart = z.looseObject({
  classifier: z.string(),
  required: z.boolean(),
  received: z.boolean(),
  finding: z
    .string()
    .optional()
    .meta({ description: 'A content rule the received picture breaks (a usability result once processed).' }),
});
export const sdkStateSchema = z
  .looseObject({
    timestamp: ts,
    workflowExecution: z.looseObject({ id: z.uuid(), status: open('INITIATED, ACQUIRED, PROCESSED') }),
    consent: z.looseObject({ obtained: z.string(), obtainedAt: ts }).nullable(),
    credentials: z.array(z.looseObject({ id: z.uuid(), category: z.string(), parts: z.array(capturePart) })),
  })
  .meta({ id: 'SdkState', description: 'What the app is to capture, and what is already in.' });
export const sdkCaptureSchema = sdkStateSchema
  .extend({
    part: z.looseObject({ id: z.uuid(), classifier: z.string() }),
    started: z.boolean().meta({ description: 'This capture completed the execution, which started by itself.' }),
  })
  .meta({ id: 'SdkCapture' });

export const finalizeSchema = z
  .looseObject({ timestamp: ts, account: ref, workflowExecution: ref })
  .meta({ id: 'FinalizeResponse' });

const decision = z.looseObject({
  type: open('PASSED, WARNING, REJECTED, NOT_EXECUTED'),
  details: z.looseObject({ label: z.string().optional() }).optional(),
  risk: z.looseObject({ score: z.number() }).optional(),
});

const capabilityEntry = z.looseObject({
  id: z.string(),
  credentials: z.array(z.looseObject({ id: z.string(), category: z.string().optional() })).optional(),
  decision,
  data: z.unknown().optional().meta({ description: "The capability's findings; shape per capability." }),
});

export const executionResultSchema = z
  .looseObject({
    workflow: z.looseObject({
      id: z.uuid(),
      status: open('INITIATED, ACQUIRED, PROCESSED, SESSION_EXPIRED, TOKEN_EXPIRED'),
      definitionKey: z.string().optional(),
      customerInternalReference: z.string().optional(),
      userReference: z.string().optional(),
    }),
    account: ref,
    createdAt: ts,
    startedAt: ts.optional(),
    completedAt: ts.optional(),
    wipedOutAt: ts.optional().meta({ description: 'Set once the personal data was deleted (R3 or retention).' }),
    decision: decision.optional(),
    credentials: z.array(z.looseObject({ id: z.uuid(), category: z.string() })).optional(),
    capabilities: z
      .record(z.string(), z.array(capabilityEntry))
      .optional()
      .meta({ description: 'Capability name (usability, extraction, similarity, …; others are kept) to entries.' }),
    feedback: z
      .looseObject({ status: z.string(), reason: z.string().optional(), providedAt: ts.optional() })
      .optional(),
  })
  .meta({ id: 'WorkflowExecutionResult' });

export const executionListSchema = z
  .looseObject({ workflowExecutions: z.array(executionResultSchema) })
  .meta({ id: 'WorkflowExecutionList' });

export const deletedExecutionSchema = z
  .looseObject({ timestamp: ts, account: ref, workflowExecution: z.looseObject({ id: z.uuid(), wipedOutAt: ts }) })
  .meta({ id: 'DeletedExecution' });

export const statusSchema = z
  .looseObject({
    account: refHref,
    workflowExecution: refHref.extend({ definitionKey: z.string(), status: z.string() }),
  })
  .meta({ id: 'WorkflowStatus' });

export const reportLinkSchema = z
  .looseObject({ workflowId: z.uuid(), presignedUrl: z.url().meta({ description: 'A PDF, valid for 15 minutes.' }) })
  .meta({ id: 'ReportLink' });

export const stepsSchema = z
  .looseObject({
    steps: z.array(
      z.looseObject({
        id: z.union([z.int(), z.string()]),
        name: z.string(),
        decision: decision.optional(),
        capabilities: z.array(z.looseObject({ id: z.string(), category: z.string() })).optional(),
      }),
    ),
  })
  .meta({ id: 'Steps' });

const rule = z.looseObject({ id: z.string(), name: z.string(), version: z.int(), score: z.number() });
export const rulesSchema = z
  .looseObject({
    executions: z.array(
      z.looseObject({
        id: z.string(),
        startedAt: ts,
        completedAt: ts,
        rulesets: z.array(
          z.looseObject({
            id: z.string(),
            name: z.string(),
            version: z.int(),
            score: z.number(),
            rulesMatched: z.array(rule),
            rulesNotMatched: z.array(rule),
          }),
        ),
      }),
    ),
  })
  .meta({ id: 'RuleExecutions' });

export const accountSchema = z
  .looseObject({
    account: refHref.extend({ createdAt: ts }),
    workflowExecutions: z.array(
      refHref.extend({
        definitionKey: z.string().optional(),
        status: z.string(),
        createdAt: ts,
        wipedOutAt: ts.optional(),
      }),
    ),
  })
  .meta({ id: 'Account' });

export const deletedAccountSchema = z.looseObject({ timestamp: ts, account: ref }).meta({ id: 'DeletedAccount' });

export const feedbackResponseSchema = z
  .looseObject({
    timestamp: ts,
    workflowExecution: ref,
    feedback: z.looseObject({ status: z.enum(FEEDBACK_STATUSES), reason: z.enum(FEEDBACK_REASONS).optional() }),
  })
  .meta({ id: 'FeedbackResponse' });

// Test tools (not part of the real service).
const rate = z.looseObject({
  requests: z.int(),
  rejected: z.int(),
  peakPerSec: z.number(),
  meanPerSec: z.number().nullable(),
  limit: z.looseObject({ perSec: z.number(), burst: z.number() }).nullable(),
});

export const statsSchema = z
  .looseObject({
    requests: z.int(),
    byStatus: z.record(z.string(), z.int()),
    rates: z.looseObject({ token: rate, account: rate, retrieval: rate }),
    apiExecutions: z.int(),
    apiAccounts: z.int(),
    callbacksPending: z.int(),
  })
  .meta({ id: 'SimulatorStats' });

export const callbackAttemptsSchema = z
  .looseObject({
    attempts: z.array(
      z.looseObject({
        executionId: z.string(),
        url: z.string().meta({ description: 'The callback URL, its query secret redacted.' }),
        attempt: z.int(),
        at: ts,
        status: z.int().optional(),
        error: z.string().optional(),
        dropped: z.boolean().optional(),
        duplicate: z.boolean().optional(),
        body: z.unknown(),
      }),
    ),
  })
  .meta({ id: 'CallbackAttempts' });
