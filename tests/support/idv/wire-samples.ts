/** Wire samples shaped after the spec and service-facts (ids are made up). */

export const ACCOUNT_ID = '11111111-1111-4111-8111-111111111111';
export const EXECUTION_ID = '22222222-2222-4222-8222-222222222222';
export const ID_CREDENTIAL = '33333333-3333-4333-8333-333333333333';
export const SELFIE_CREDENTIAL = '44444444-4444-4444-8444-444444444444';

const cred = [{ id: ID_CREDENTIAL, category: 'ID', label: 'ID' }];
const entry = (id: string, type: string, label: string, extra: Record<string, unknown> = {}) => ({
  id,
  credentials: cred,
  decision: { type, details: { label } },
  ...extra,
});

export function resultSample(): Record<string, unknown> {
  return {
    workflow: {
      id: EXECUTION_ID,
      status: 'PROCESSED',
      definitionKey: '10013',
      originalDefinitionKey: '10013',
      userReference: 'user-77',
      customerInternalReference: 'order-123',
      reportingCriteria: 'eu-onboarding',
      childIds: [],
    },
    account: { id: ACCOUNT_ID, href: `https://retrieval.emea-1.example.com/api/v1/accounts/${ACCOUNT_ID}` },
    createdAt: '2025-01-01T10:00:00.000Z',
    startedAt: '2025-01-01T10:01:00.000Z',
    completedAt: '2025-01-01T10:02:30.000Z',
    credentials: [
      {
        id: ID_CREDENTIAL,
        category: 'ID',
        label: 'ID',
        clientIp: '203.0.113.7',
        parts: [
          { classifier: 'FRONT', captureType: 'MANUAL', href: 'https://retrieval.example/front' },
          { classifier: 'BACK', captureType: 'AUTO' },
        ],
        reusableIdentity: { status: 'ID_NOT_FOUND', source: 'VENDOR' },
        consent: { decisionAccepted: true, collectedBy: 'CUSTOMER' },
      },
      {
        id: SELFIE_CREDENTIAL,
        category: 'SELFIE',
        label: 'SELFIE',
        parts: [{ classifier: 'FACE' }, { classifier: 'FACEMAP' }],
      },
    ],
    decision: { type: 'WARNING', details: { label: 'WARNING' }, risk: { score: 55 } },
    capabilities: {
      extraction: [
        entry('e0000000-0000-4000-8000-000000000001', 'PASSED', 'OK', {
          nfcValidationResult: 'READ_VALIDATED',
          data: {
            type: 'PASSPORT',
            issuingCountry: 'DEU',
            firstName: 'ERIKA',
            lastName: 'MUSTERMANN',
            dateOfBirth: '1964-08-12',
            dateOfBirthParts: { year: 1964, month: 8, day: 12 },
            expiryDate: '2030-01-01',
            documentNumber: 'C01X00T47',
            signatureAvailable: true,
            address: { line1: 'Heidestr. 17', city: 'Köln', postalCode: '51147', country: 'DEU' },
            dlCategories: [{ category: 'B', issueDate: '2010-01-01', isReadable: true }],
            cardNumberLastFourDigits: 1234,
            mrz: { line1: 'P<D<<MUSTERMANN<<ERIKA', line2: 'C01X00T478D<<6408125F3001019<<<<<<<<<<<<<<<4' },
          },
        }),
      ],
      usability: [entry('u0000000-0000-4000-8000-000000000001', 'PASSED', 'OK')],
      imageChecks: [
        entry('i0000000-0000-4000-8000-000000000001', 'WARNING', 'REPEATED_FACE', {
          data: { faceSearchFindings: { status: 'DONE', findings: ['f0000000-0000-4000-8000-000000000009'] } },
        }),
      ],
      similarity: [
        entry('s0000000-0000-4000-8000-000000000001', 'PASSED', 'MATCH', {
          data: { similarity: 'MATCH', score: 0.97 },
        }),
      ],
      liveness: [
        entry('l0000000-0000-4000-8000-000000000001', 'PASSED', 'OK', {
          validFaceMapForAuthentication: 'https://retrieval.example/facemap',
          data: { type: 'VENDOR_PREMIUM', predictedAge: 38, ageConfidenceRange: '33-43' },
        }),
      ],
      dataChecks: [entry('d0000000-0000-4000-8000-000000000001', 'PASSED', 'OK')],
      watchlistScreening: [
        entry('w0000000-0000-4000-8000-000000000001', 'WARNING', 'ALERT', {
          data: { searchDate: '2025-01-01T10:02:00Z', searchId: '123', searchStatus: 'DONE', searchResults: 2 },
          additionalInformation: { vendor: { name: 'ScreenCo', response: { hits: [{ name: 'X' }] } } },
        }),
      ],
      bankCheck: [
        {
          id: 'bank-check-0001',
          credentials: cred,
          decision: { type: 'PASSED', details: { label: 'OK' } },
          data: 'ACCOUNT_VERIFIED',
        },
      ],
      binCheck: [{ id: '987654', decision: { type: 'PASSED', details: { label: 'OK' } }, data: 'VISA DEBIT' }],
      lookups: [
        entry('k0000000-0000-4000-8000-000000000001', 'PASSED', 'OK', {
          data: {
            matchedTransactions: {
              totalHighRiskTransactions: 0,
              network: { highRiskTransactions: 0, transactions: ['t1'] },
              associatedNetwork: { transactions: { email: ['t2', 't3'] } },
              globalNetwork: { lowRiskTransactions: 4 },
            },
          },
        }),
      ],
      riskAnalytics: [
        entry('r0000000-0000-4000-8000-000000000001', 'PASSED', 'OK', {
          data: {
            associationRisk: {
              riskLevel: 'LOW',
              riskScore: 10,
              insights: [{ message: 'm', value: 'v', riskLevel: 'LOW', riskScore: 1 }],
            },
            network: {
              totalAssociations: 1,
              associatedEntities: [
                { transactionId: 't', highRiskTransaction: false, riskScore: 3, entities: ['email'] },
              ],
            },
          },
        }),
      ],
      masking: [entry('m0000000-0000-4000-8000-000000000001', 'PASSED', 'OK')],
    },
    rules: {
      executions: [
        {
          id: 're000000-0000-4000-8000-000000000001',
          startedAt: '2025-01-01T10:02:00Z',
          completedAt: '2025-01-01T10:02:01Z',
          rulesets: [
            {
              id: 'rs-1',
              name: 'Default risk',
              version: 3,
              score: 55,
              rulesMatched: [{ id: 'rule-1', name: 'Repeated face', version: 1, score: 40 }],
              rulesNotMatched: [{ id: 'rule-2', name: 'Expired', version: 2, score: 0 }],
            },
          ],
        },
      ],
    },
    steps: {
      href: `https://retrieval.example/api/v1/accounts/accounts/${ACCOUNT_ID}/workflow-executions/${EXECUTION_ID}/steps`,
    },
    consent: { obtained: 'yes', obtainedAt: '2025-01-01T09:59:00Z' },
    captureClient: {
      client: 'web',
      platform: 'ios',
      version: '4.2.0',
      osName: 'iOS',
      state: [['started', 'id-front-uploaded', 'id-back-uploaded']],
      captureDetails: [['front: auto_capture', 'back: upload']],
    },
  };
}

export function accountResponseSample(base = 'https://api.emea-1.example.com'): Record<string, unknown> {
  const exec = `${base}/api/v1/accounts/${ACCOUNT_ID}/workflow-executions/${EXECUTION_ID}`;
  return {
    timestamp: '2025-01-01T10:00:00.000Z',
    account: { id: ACCOUNT_ID },
    web: { href: 'https://web.example/start?token=x' },
    sdk: { token: 'sdk-token' },
    workflowExecution: {
      id: EXECUTION_ID,
      credentials: [
        {
          id: ID_CREDENTIAL,
          category: 'ID',
          country: { predefinedType: 'DEFINED', values: ['DEU'] },
          type: { predefinedType: 'DEFINED', values: ['PASSPORT', 'ID_CARD'] },
          allowedChannels: ['WEB', 'API', 'SDK'],
          api: {
            token: 'tx-id-token',
            parts: {
              front: `${exec}/credentials/${ID_CREDENTIAL}/parts/FRONT`,
              back: `${exec}/credentials/${ID_CREDENTIAL}/parts/BACK`,
            },
            workflowExecution: exec,
          },
        },
        { id: '55555555-5555-4555-8555-555555555555', category: 'FACEMAP', allowedChannels: ['WEB', 'SDK'] },
      ],
    },
  };
}

/** The workflow definition of the usual journey: an ID card issued by `country`, and a selfie. */
export function idCardAndSelfieWorkflow(country: string) {
  return {
    key: '10013',
    credentials: [
      {
        category: 'ID',
        country: { predefinedType: 'DEFINED', values: [country] },
        type: { predefinedType: 'DEFINED', values: ['ID_CARD'] },
      },
      { category: 'SELFIE' },
    ],
  };
}
