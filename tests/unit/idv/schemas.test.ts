import { describe, expect, it } from 'vitest';
import { IdvParseError } from '@/lib/idv/errors';
import { credentialUrlOf, parseCallbackHref } from '@/lib/idv/links';
import {
  AccountRequestSchema,
  AccountResponseSchema,
  CallbackBodySchema,
  CAPABILITY_LABELS,
  CAPABILITY_NAMES,
  CredentialOperationResponseSchema,
  FeedbackRequestSchema,
  HealthResponseSchema,
  isKnownCapabilityLabel,
  isTerminalWorkflowStatus,
  listCapabilityEntries,
  ListResponseSchema,
  parseOrThrow,
  PreparedDataSchema,
  ReportResponseSchema,
  RuleExecutionsResponseSchema,
  StatusResponseSchema,
  stepCapabilityIds,
  StepsResponseSchema,
  TokenResponseSchema,
  WorkflowExecutionResultSchema,
  type CapabilityEntry,
} from '@/lib/idv/schemas';
import {
  ACCOUNT_ID,
  accountResponseSample,
  EXECUTION_ID,
  ID_CREDENTIAL,
  resultSample,
} from '../../support/idv/wire-samples';
import { thrownBy } from '../../support/thrown';

const parseResult = (v: unknown) => parseOrThrow(WorkflowExecutionResultSchema, v, 'R2 workflow execution result');

const parseError = (fn: () => unknown) => thrownBy(IdvParseError, fn);

describe('workflow execution result (R2)', () => {
  it('parses a full sample with its typed capability data', () => {
    const r = parseResult(resultSample());
    expect(r.workflow.id).toBe(EXECUTION_ID);
    expect(r.account.id).toBe(ACCOUNT_ID);
    expect(r.decision?.risk?.score).toBe(55);
    const ex = r.capabilities?.extraction?.[0];
    expect(ex?.nfcValidationResult).toBe('READ_VALIDATED');
    const data = ex?.data;
    if (!data || typeof data !== 'object' || Array.isArray(data))
      throw new Error('extraction data should be an object');
    expect(data.firstName).toBe('ERIKA');
    expect(data.dateOfBirthParts?.year).toBe(1964);
    expect(data.address?.city).toBe('Köln');
    expect(r.capabilities?.liveness?.[0].validFaceMapForAuthentication).toBe('https://retrieval.example/facemap');
    expect(r.capabilities?.watchlistScreening?.[0].additionalInformation?.vendor?.name).toBe('ScreenCo');
    expect(r.rules?.executions?.[0].rulesets[0].rulesMatched[0].score).toBe(40);
    expect(r.captureClient?.state?.[0]).toEqual(['started', 'id-front-uploaded', 'id-back-uploaded']);
    expect(r.credentials?.[0].reusableIdentity?.status).toBe('ID_NOT_FOUND');
  });

  it('keeps unknown fields at every level', () => {
    const raw = resultSample();
    (raw as any).newTopLevel = { x: 1 };
    (raw as any).workflow.tenant = 'eu-2';
    (raw as any).decision.details.reasonCodes = ['A1'];
    (raw as any).capabilities.usability[0].confidence = 0.3;
    (raw as any).capabilities.extraction[0].data.brandNewField = 'kept';
    const r = parseResult(raw) as any;
    expect(r.newTopLevel).toEqual({ x: 1 });
    expect(r.workflow.tenant).toBe('eu-2');
    expect(r.decision.details.reasonCodes).toEqual(['A1']);
    expect(r.capabilities.usability[0].confidence).toBe(0.3);
    expect(r.capabilities.extraction[0].data.brandNewField).toBe('kept');
  });

  it('keeps unknown statuses, decision types, labels and capabilities as strings', () => {
    const raw = resultSample();
    (raw as any).workflow.status = 'ARCHIVED';
    (raw as any).decision = { type: 'ESCALATED', details: { label: 'MANUAL_REVIEW' }, risk: { score: 80 } };
    (raw as any).capabilities.usability[0].decision = { type: 'SOFT_FAIL', details: { label: 'LENS_FLARE' } };
    (raw as any).capabilities.voiceCheck = [
      { id: 'v-1', decision: { type: 'PASSED', details: { label: 'OK' } }, data: { pitch: 3 } },
    ];
    const r = parseResult(raw);
    expect(r.workflow.status).toBe('ARCHIVED');
    expect(r.decision?.type).toBe('ESCALATED');
    expect(r.decision?.details?.label).toBe('MANUAL_REVIEW');
    expect(r.capabilities?.usability?.[0].decision?.details?.label).toBe('LENS_FLARE');
    expect((r.capabilities as Record<string, unknown>).voiceCheck).toBeDefined();
    const all = listCapabilityEntries(r.capabilities);
    const voice = all.find((c) => c.capability === 'voiceCheck');
    expect(voice?.known).toBe(false);
    expect(voice?.entries[0].decision?.type).toBe('PASSED');
    expect(voice?.entries[0].data).toEqual({ pitch: 3 });
    // known ones first, in spec order
    const names = all.map((c) => c.capability);
    expect(names.indexOf('extraction')).toBeLessThan(names.indexOf('usability'));
    expect(names.at(-1)).toBe('voiceCheck');
    expect(isKnownCapabilityLabel('usability', 'REJECTED', 'LENS_FLARE')).toBe(false);
  });

  it('accepts a record with only the ids (missing optional parts do not fail)', () => {
    const r = parseResult({ workflow: { id: EXECUTION_ID }, account: { id: ACCOUNT_ID } });
    expect(r.workflow.id).toBe(EXECUTION_ID);
    expect(r.capabilities).toBeUndefined();
    expect(listCapabilityEntries(r.capabilities)).toEqual([]);
  });

  it('fails naming workflow.id when the execution id is missing', () => {
    const raw = resultSample();
    delete (raw as any).workflow.id;
    const err = parseError(() => parseResult(raw));
    expect(err.path).toBe('workflow.id');
    expect(err.message).toContain('workflow.id');
    expect(err.message).toContain('R2 workflow execution result');
  });

  it('fails naming workflow.id when it has the wrong type, and account.id when missing', () => {
    expect(parseError(() => parseResult({ workflow: { id: 42 }, account: { id: ACCOUNT_ID } })).path).toBe(
      'workflow.id',
    );
    expect(parseError(() => parseResult({ workflow: { id: EXECUTION_ID }, account: {} })).path).toBe('account.id');
    expect(parseError(() => parseResult({ account: { id: ACCOUNT_ID } })).path).toBe('workflow');
  });

  it('bankCheck and binCheck: plain-string data and non-UUID ids', () => {
    const r = parseResult(resultSample());
    expect(r.capabilities?.bankCheck?.[0]).toMatchObject({ id: 'bank-check-0001', data: 'ACCOUNT_VERIFIED' });
    expect(r.capabilities?.binCheck?.[0]).toMatchObject({ id: '987654', data: 'VISA DEBIT' });
    const asObject = parseResult({
      workflow: { id: 'w' },
      account: { id: 'a' },
      capabilities: { bankCheck: [{ id: 7, data: { iban: 'DE00' } }] },
    });
    expect(asObject.capabilities?.bankCheck?.[0]).toMatchObject({ id: '7', data: { iban: 'DE00' } });
  });

  it('coerces safe scalars and drops only a known optional field of an unusable type', () => {
    const raw = resultSample();
    (raw as any).workflow.definitionKey = 10013;
    (raw as any).decision.risk.score = '72';
    (raw as any).capabilities.similarity[0].data.score = { weird: true };
    (raw as any).capabilities.extraction[0].data.signatureAvailable = 'false';
    (raw as any).capabilities.extraction[0].data = {
      ...(raw as any).capabilities.extraction[0].data,
      firstName: ['not', 'a', 'string'],
    };
    const r = parseResult(raw);
    expect(r.workflow.definitionKey).toBe('10013');
    expect(r.decision?.risk?.score).toBe(72);
    const sim = r.capabilities?.similarity?.[0].data as { similarity?: string; score?: number };
    expect(sim.similarity).toBe('MATCH');
    expect(sim.score).toBeUndefined();
    const ex = r.capabilities?.extraction?.[0].data as {
      signatureAvailable?: boolean;
      firstName?: string;
      lastName?: string;
    };
    expect(ex.signatureAvailable).toBe(false);
    expect(ex.firstName).toBeUndefined();
    expect(ex.lastName).toBe('MUSTERMANN');
  });

  it('never drops a capability entry for what it says; drops only non-object junk', () => {
    const r = parseResult({
      workflow: { id: 'w' },
      account: { id: 'a' },
      capabilities: {
        usability: [{ decision: { type: 'NEW', details: { label: 'NEWER' } } }, 'junk', null, { id: 'u2' }],
        liveness: 'not an array',
      },
    });
    expect(r.capabilities?.usability).toHaveLength(2);
    expect(r.capabilities?.usability?.[0].decision?.details?.label).toBe('NEWER');
    expect(r.capabilities?.liveness).toBeUndefined();
  });

  it('a typed capability whose data is not an object keeps it as it came', () => {
    const r = parseResult({
      workflow: { id: 'w' },
      account: { id: 'a' },
      capabilities: { extraction: [{ id: 'e', data: 'opaque' }] },
    });
    expect(r.capabilities?.extraction?.[0].data).toBe('opaque');
    const entry: CapabilityEntry = r.capabilities!.extraction![0];
    expect(entry.id).toBe('e');
  });

  it('keeps steps.href (with its accounts/accounts typo) only as data', () => {
    const r = parseResult(resultSample());
    expect(r.steps).toEqual({ href: expect.stringContaining('/accounts/accounts/') });
  });
});

describe('R12 list', () => {
  it('parses a page and names the index of a record without workflow.id', () => {
    const page = ListResponseSchema.parse({ workflowExecutions: [resultSample(), resultSample()], page: 1 });
    expect(page.workflowExecutions).toHaveLength(2);
    expect((page as Record<string, unknown>).page).toBe(1);
    const bad = resultSample();
    delete (bad as any).workflow.id;
    const err = parseError(() =>
      parseOrThrow(ListResponseSchema, { workflowExecutions: [resultSample(), bad] }, 'R12 list'),
    );
    expect(err.path).toBe('workflowExecutions.1.workflow.id');
    expect(ListResponseSchema.parse({}).workflowExecutions).toEqual([]);
  });
});

describe('steps (R7), rules (R8), status (R5), report (R6)', () => {
  it('accepts steps with capabilities, with only capabilityIds (older results), or both', () => {
    const s = StepsResponseSchema.parse({
      steps: [
        {
          id: 1,
          name: 'ID_IV',
          decision: { type: 'PASSED', details: { label: 'OK' } },
          capabilities: [{ id: 'c1', category: 'ImageCheck' }],
          capabilityIds: ['c1', 'c2'],
        },
        { id: 2, name: 'SCREENING', capabilityIds: ['c3'] },
        { id: 3, name: 'NEW_STEP', capabilities: [{ id: 'c4' }] },
        { name: 'NO_ID_STEP' },
      ],
    });
    expect(s.steps).toHaveLength(4);
    expect(stepCapabilityIds(s.steps[0])).toEqual(['c1', 'c2']);
    expect(stepCapabilityIds(s.steps[1])).toEqual(['c3']);
    expect(stepCapabilityIds(s.steps[2])).toEqual(['c4']);
    expect(stepCapabilityIds(s.steps[3])).toEqual([]);
    expect(StepsResponseSchema.parse({}).steps).toEqual([]);
  });

  it('parses rule executions with rule versions and scores', () => {
    const r = RuleExecutionsResponseSchema.parse((resultSample() as any).rules);
    expect(r.executions[0].rulesets[0]).toMatchObject({ id: 'rs-1', version: 3, score: 55 });
    expect(r.executions[0].rulesets[0].rulesNotMatched[0].name).toBe('Expired');
  });

  it('status: definitionKey number -> string; missing execution id fails', () => {
    const s = StatusResponseSchema.parse({
      account: { id: ACCOUNT_ID, href: 'x' },
      workflowExecution: { id: EXECUTION_ID, href: 'y', definitionKey: 10013, status: 'INITIATED' },
    });
    expect(s.workflowExecution.definitionKey).toBe('10013');
    expect(parseError(() => parseOrThrow(StatusResponseSchema, { workflowExecution: {} }, 'R5 status')).path).toBe(
      'workflowExecution.id',
    );
  });

  it('report: workflowId with an optional presignedUrl', () => {
    expect(ReportResponseSchema.parse({ workflowId: EXECUTION_ID })).toEqual({ workflowId: EXECUTION_ID });
    expect(
      ReportResponseSchema.parse({ workflowId: EXECUTION_ID, presignedUrl: 'https://s3/x.pdf' }).presignedUrl,
    ).toBe('https://s3/x.pdf');
  });
});

describe('callback body', () => {
  const body = {
    callbackSentAt: '2025-01-01T10:03:00Z',
    workflowExecution: {
      id: EXECUTION_ID,
      href: `https://retrieval.example/api/v1/workflow-executions/${EXECUTION_ID}`,
      definitionKey: 10013,
      status: 'PROCESSED',
    },
    account: { id: ACCOUNT_ID, href: `https://retrieval.example/api/v1/accounts/${ACCOUNT_ID}` },
  };

  it('coerces a numeric definitionKey to a string and allows a missing userReference', () => {
    const c = CallbackBodySchema.parse(body);
    expect(c.workflowExecution.definitionKey).toBe('10013');
    expect(c.userReference).toBeUndefined();
    expect(CallbackBodySchema.parse({ ...body, userReference: 'u-1' }).userReference).toBe('u-1');
  });

  it('accepts any status and fails on a missing execution or account id', () => {
    expect(
      CallbackBodySchema.parse({ ...body, workflowExecution: { ...body.workflowExecution, status: 'TOKEN_EXPIRED' } })
        .workflowExecution.status,
    ).toBe('TOKEN_EXPIRED');
    const noExec = { ...body, workflowExecution: { href: 'x' } };
    expect(parseError(() => parseOrThrow(CallbackBodySchema, noExec, 'callback')).path).toBe('workflowExecution.id');
    const noAccount = { ...body, account: { href: 'x' } };
    expect(parseError(() => parseOrThrow(CallbackBodySchema, noAccount, 'callback')).path).toBe('account.id');
  });

  it('parseCallbackHref accepts both link forms', () => {
    expect(
      parseCallbackHref(`https://retrieval.example/api/v1/accounts/${ACCOUNT_ID}/workflow-executions/${EXECUTION_ID}`),
    ).toEqual({
      accountId: ACCOUNT_ID,
      workflowExecutionId: EXECUTION_ID,
    });
    expect(parseCallbackHref(`https://retrieval.example/api/v1/workflow-executions/${EXECUTION_ID}`)).toEqual({
      workflowExecutionId: EXECUTION_ID,
    });
    expect(parseCallbackHref(`/api/v1/workflow-executions/${EXECUTION_ID}/status?x=1`)).toEqual({
      workflowExecutionId: EXECUTION_ID,
    });
    expect(
      parseCallbackHref(`https://r.example/api/v1/accounts/accounts/${ACCOUNT_ID}/workflow-executions/${EXECUTION_ID}`),
    ).toEqual({
      accountId: ACCOUNT_ID,
      workflowExecutionId: EXECUTION_ID,
    });
    expect(parseError(() => parseCallbackHref('https://r.example/api/v1/accounts/x')).message).toContain(
      'workflow-executions',
    );
  });

  it('credentialUrlOf strips the part segment', () => {
    expect(
      credentialUrlOf(
        `https://api.example/api/v1/accounts/a/workflow-executions/w/credentials/${ID_CREDENTIAL}/parts/FRONT`,
      ),
    ).toBe(`https://api.example/api/v1/accounts/a/workflow-executions/w/credentials/${ID_CREDENTIAL}`);
    expect(credentialUrlOf('https://api.example/x/credentials/c')).toBe('https://api.example/x/credentials/c');
  });
});

describe('account and credential operation responses', () => {
  it('parses credentials with and without the api member', () => {
    const r = parseOrThrow(AccountResponseSchema, accountResponseSample(), 'A1');
    expect(r.workflowExecution.credentials).toHaveLength(2);
    expect(r.workflowExecution.credentials[0].api?.parts?.front).toContain('/parts/FRONT');
    expect(r.workflowExecution.credentials[0].api?.token).toBe('tx-id-token');
    expect(r.workflowExecution.credentials[1].api).toBeUndefined();
    expect(r.sdk?.token).toBe('sdk-token');
  });

  it('an account response without account.id fails naming it', () => {
    const raw = accountResponseSample();
    (raw as any).account = {};
    expect(parseError(() => parseOrThrow(AccountResponseSchema, raw, 'A1 account response')).path).toBe('account.id');
  });

  it('credential-operation responses: full, finalize-only and prepared-data {} parts', () => {
    const full = CredentialOperationResponseSchema.parse({
      timestamp: 't',
      account: { id: 'a' },
      workflowExecution: { id: 'w' },
      credential: { id: 'c' },
      part: { id: 'p' },
      api: { token: 'tx', parts: { front: { '1': 'https://api.example/front/1' } } },
    });
    expect(full.api?.parts?.front?.['1']).toBe('https://api.example/front/1');
    expect(
      CredentialOperationResponseSchema.parse({ timestamp: 't', account: { id: 'a' }, workflowExecution: { id: 'w' } })
        .credential,
    ).toBeUndefined();
    expect(CredentialOperationResponseSchema.parse({ api: { parts: {} } }).api?.parts).toEqual({});
  });

  it('token, health', () => {
    expect(TokenResponseSchema.parse({ access_token: 'x', expires_in: '3600', token_type: 'Bearer' }).expires_in).toBe(
      3600,
    );
    expect(() => TokenResponseSchema.parse({ expires_in: 3600 })).toThrow();
    expect(
      HealthResponseSchema.parse({ status: 'DEGRADED', details: { api: 'UP', callback: 'DOWN' } }).details?.callback,
    ).toBe('DOWN');
  });
});

describe('outgoing bodies are strict', () => {
  const base = { customerInternalReference: 'order-1', workflowDefinition: { key: 10013 } };

  it('accepts a full account request', () => {
    const ok = AccountRequestSchema.safeParse({
      ...base,
      userReference: 'user-1',
      reportingCriteria: 'x',
      callbackUrl: 'https://verdict.example/api/callback/s3cr3t',
      tokenLifetime: '30m',
      web: { successUrl: 'https://ok', errorUrl: 'https://err', locale: 'en-GB' },
      workflowDefinition: {
        key: '10013',
        credentials: [
          {
            category: 'ID',
            country: { predefinedType: 'DEFINED', values: ['DEU', 'AUT'] },
            type: { predefinedType: 'DEFINED', values: ['PASSPORT'] },
          },
          { category: 'SELFIE' },
        ],
        capabilities: {
          watchlistScreening: {},
          documentVerification: { enableExtraction: true },
          ekycCheck: { searchType: 'FULL' },
          workflowDecision: { riskScoreRulesetId: 'r', decisionLabelRulesetId: 'd' },
          ruleset: { ids: ['a'] },
        },
      },
      userConsent: {
        userIp: '203.0.113.1',
        userLocation: { country: 'DEU', state: 'NW' },
        consent: { obtained: 'yes', obtainedAt: '2025-01-01T10:00:00Z' },
      },
      overrideSettings: { something: 'x' },
    });
    expect(ok.success).toBe(true);
  });

  it('enforces lengths, the tokenLifetime format and unknown keys', () => {
    const fails = (v: unknown) => !AccountRequestSchema.safeParse(v).success;
    expect(fails({ ...base, customerInternalReference: 'x'.repeat(101) })).toBe(true);
    expect(fails({ ...base, customerInternalReference: 'x'.repeat(100) })).toBe(false);
    expect(fails({ ...base, customerInternalReference: '' })).toBe(true);
    expect(fails({ ...base, userReference: 'x'.repeat(101) })).toBe(true);
    expect(fails({ ...base, reportingCriteria: 'x'.repeat(256) })).toBe(true);
    expect(fails({ ...base, reportingCriteria: 'x'.repeat(255) })).toBe(false);
    expect(fails({ ...base, callbackUrl: `https://x/${'a'.repeat(250)}` })).toBe(true);
    for (const good of ['30m', '+5d', '-1h', '3600s']) expect(fails({ ...base, tokenLifetime: good })).toBe(false);
    for (const bad of ['30', '5 m', '1w', 'm', '1.5h']) expect(fails({ ...base, tokenLifetime: bad })).toBe(true);
    expect(fails({ ...base, customerInternalRefrence: 'typo' })).toBe(true);
    expect(fails({ customerInternalReference: 'x' })).toBe(true);
    expect(
      fails({
        ...base,
        workflowDefinition: {
          key: 1,
          credentials: [{ category: 'ID', country: { predefinedType: 'DEFINED', values: ['DE'] } }],
        },
      }),
    ).toBe(true);
  });

  it('prepared data: all optional, formats checked', () => {
    expect(PreparedDataSchema.safeParse({}).success).toBe(true);
    expect(
      PreparedDataSchema.safeParse({
        firstName: 'A',
        dateOfBirth: '1990-01-31',
        email: 'a@b.example',
        sex: 'F',
        bank: { amount: 10 },
      }).success,
    ).toBe(true);
    expect(PreparedDataSchema.safeParse({ dateOfBirth: '31.01.1990' }).success).toBe(false);
    expect(PreparedDataSchema.safeParse({ email: 'nope' }).success).toBe(false);
    expect(PreparedDataSchema.safeParse({ favouriteColour: 'blue' }).success).toBe(false);
  });

  it('feedback: FRAUD requires a real reason; values come from the known sets', () => {
    expect(FeedbackRequestSchema.safeParse({ status: 'NOT_FRAUD' }).success).toBe(true);
    expect(FeedbackRequestSchema.safeParse({ status: 'NA' }).success).toBe(true);
    expect(FeedbackRequestSchema.safeParse({ status: 'FRAUD', reason: 'FIRST_PARTY_FRAUD' }).success).toBe(true);
    const noReason = FeedbackRequestSchema.safeParse({ status: 'FRAUD' });
    expect(noReason.success).toBe(false);
    expect(noReason.error?.issues[0].path).toEqual(['reason']);
    expect(FeedbackRequestSchema.safeParse({ status: 'FRAUD', reason: 'NA' }).success).toBe(false);
    expect(FeedbackRequestSchema.safeParse({ status: 'FRAUD', reason: 'BAD_VIBES' }).success).toBe(false);
    expect(FeedbackRequestSchema.safeParse({ status: 'MAYBE' }).success).toBe(false);
  });
});

describe('value sets', () => {
  it('lists the 34 capabilities in spec order and the documented labels', () => {
    expect(CAPABILITY_NAMES).toHaveLength(34);
    expect(CAPABILITY_NAMES[0]).toBe('extraction');
    expect(CAPABILITY_NAMES.at(-1)).toBe('masking');
    expect(new Set(CAPABILITY_NAMES).size).toBe(34);
    expect(CAPABILITY_LABELS.imageChecks?.REJECTED).toContain('MANIPULATED_DOCUMENT_PLACE_OF_BIRTH');
    expect(isKnownCapabilityLabel('similarity', 'WARNING', 'NOT_POSSIBLE')).toBe(true);
    expect(isKnownCapabilityLabel('liveness', 'NOT_EXECUTED', 'PRECONDITION_NOT_FULFILLED')).toBe(true);
    expect(isTerminalWorkflowStatus('SESSION_EXPIRED')).toBe(true);
    expect(isTerminalWorkflowStatus('ACQUIRED')).toBe(false);
  });
});
