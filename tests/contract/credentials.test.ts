// C1-C7: credential operations, upload limits, prepared data, and the order of operations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '@/lib/simulator';
import { pdfReport } from '@/lib/simulator/pdf';
import {
  accountBody,
  call,
  createAccount,
  expectProblem,
  fileForm,
  images,
  start,
  startSignedIn,
  statusOf,
  token,
  upload,
  uploadPart,
  waitFor,
  type CreatedAccount,
  type Json,
} from './helpers';

let sim: RunningSimulator;
let access: string;
beforeAll(async () => {
  ({ sim, access } = await startSignedIn());
});
afterAll(() => sim.close());

const resultOf = async (acc: CreatedAccount) =>
  (
    await call(sim, 'GET', `/api/v1/accounts/${acc.accountId}/workflow-executions/${acc.executionId}`, {
      token: access,
    })
  ).json;
const dataAccount = () =>
  createAccount(sim, access, { workflowDefinition: { key: '10031', credentials: [{ category: 'DATA' }] } });
const docAccount = () =>
  createAccount(sim, access, { workflowDefinition: { key: 'doc-only', credentials: [{ category: 'DOCUMENT' }] } });

describe('C2: add a part to a credential (POST, multipart field file)', () => {
  it('Endpoints C2: a valid PNG ID front returns 200 and the credential-operation response', async () => {
    const acc = await createAccount(sim, access);
    const r = await uploadPart(sim, acc, 'front', images.front());
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      timestamp: expect.any(String),
      account: { id: acc.accountId },
      workflowExecution: { id: acc.executionId },
      credential: { id: acc.creds.ID.id },
      part: { id: expect.stringMatching(/^[0-9a-f-]{36}$/) },
      api: {
        token: acc.txToken,
        parts: {
          front: { '1': `${sim.url}/api/v1/accounts/${acc.accountId}/credentials/${acc.creds.ID.id}/parts/FRONT` },
        },
      },
    });
  });

  it('Image file format: a JPEG selfie is accepted', async () => {
    const acc = await createAccount(sim, access);
    expect((await uploadPart(sim, acc, 'face', images.face())).status).toBe(200);
  });

  it('Image file format: JPEG or PNG only, checked by content — a text file named .png gets 400 naming the rule', async () => {
    const acc = await createAccount(sim, access);
    expectProblem(
      await uploadPart(sim, acc, 'front', Buffer.from('hello, I am not an image')),
      400,
      /^Image file format/,
    );
  });

  it('Image file format: a GIF gets 400 naming the rule', async () => {
    const acc = await createAccount(sim, access);
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    expectProblem(await uploadPart(sim, acc, 'front', gif), 400, /^Image file format/);
  });

  it('Image file format: a truncated PNG (valid header, no image data) gets 400', async () => {
    const acc = await createAccount(sim, access);
    expectProblem(await uploadPart(sim, acc, 'front', images.front().subarray(0, 200)), 400, /^Image file format/);
  });

  it('Image file size: at most 15 MB — a larger file gets 400 "file too large"', async () => {
    const acc = await createAccount(sim, access);
    const big = Buffer.alloc(15 * 1024 * 1024 + 1, 0);
    images.front().copy(big);
    expectProblem(await uploadPart(sim, acc, 'front', big), 400, /^Image file size: file too large \(at most 15 MB\)/);
  });

  it('Image resolution: at most 8000 x 8000 px — 8001 px wide gets 400', async () => {
    const acc = await createAccount(sim, access);
    expectProblem(
      await uploadPart(sim, acc, 'front', images.png(8001, 400)),
      400,
      /^Image resolution: at most 8000 x 8000/,
    );
  });

  it('Longest image side: greater than 300 px (C2) — 300 x 200 gets 400', async () => {
    const acc = await createAccount(sim, access);
    expectProblem(
      await uploadPart(sim, acc, 'front', images.png(300, 200)),
      400,
      /^Longest image side: must be greater than 300 px/,
    );
  });

  it('Document image resolution: minimum 563 x 355 px — 562 x 400 and 600 x 354 get 400; 563 x 355 passes', async () => {
    const acc = await createAccount(sim, access);
    expectProblem(
      await uploadPart(sim, acc, 'front', images.png(562, 400)),
      400,
      /^Document image resolution: minimum 563 x 355/,
    );
    expectProblem(await uploadPart(sim, acc, 'front', images.png(600, 354)), 400, /^Document image resolution/);
    expect((await uploadPart(sim, acc, 'front', images.png(563, 355))).status).toBe(200);
  });

  it('Selfie image resolution: minimum 480 x 640 px — 479 x 640 gets 400; 480 x 640 passes', async () => {
    const acc = await createAccount(sim, access);
    expectProblem(
      await uploadPart(sim, acc, 'face', images.jpeg(479, 640)),
      400,
      /^Selfie image resolution: minimum 480 x 640/,
    );
    expect((await uploadPart(sim, acc, 'face', images.jpeg(480, 640))).status).toBe(200);
  });

  it('Part classifiers: FRONT, BACK for ID; FACE for SELFIE — FACE on an ID credential gets 400', async () => {
    const acc = await createAccount(sim, access);
    const url = acc.creds.ID.api.parts.front.replace(/FRONT$/, 'FACE');
    expectProblem(await upload(sim, url, acc.txToken, images.face()), 400, /FACE is not a part of a ID credential/);
  });

  it('Part classifiers: an unknown classifier gets 400', async () => {
    const acc = await createAccount(sim, access);
    expectProblem(
      await upload(sim, acc.creds.ID.api.parts.front.replace(/FRONT$/, 'SIDEWAYS'), acc.txToken, images.front()),
      400,
      /classifier must be one of FRONT, BACK, FACE/,
    );
  });

  it('C2: the multipart field "file" is required', async () => {
    const acc = await createAccount(sim, access);
    const r = await call(sim, 'POST', acc.creds.ID.api.parts.front, {
      token: acc.txToken,
      raw: fileForm(images.front(), 'x.png', 'image'),
    });
    expectProblem(r, 400, /field "file" is required/);
  });

  it('C2: a non-multipart body gets 400', async () => {
    const acc = await createAccount(sim, access);
    const r = await call(sim, 'POST', acc.creds.ID.api.parts.front, {
      token: acc.txToken,
      raw: new Uint8Array(images.front()),
      headers: { 'content-type': 'image/png' },
    });
    expectProblem(r, 400, /multipart\/form-data/);
  });

  it('Notes: credential operations need the transaction token of the credential (401 without a token)', async () => {
    const acc = await createAccount(sim, access);
    expectProblem(await call(sim, 'POST', acc.creds.ID.api.parts.front, { raw: fileForm(images.front()) }), 401);
  });

  it('Path parameters are UUIDs: an invalid credentialId gets 400', async () => {
    const acc = await createAccount(sim, access);
    expectProblem(
      await upload(sim, acc.creds.ID.api.parts.front.replace(acc.creds.ID.id, 'nope'), acc.txToken, images.front()),
      400,
      /credentialId must be a UUID/,
    );
  });

  it('Unknown ids: a credential that is not in the token get 403; an account that does not match gets 404', async () => {
    const acc = await createAccount(sim, access);
    const other = '8d0c1f7e-1a2b-4c3d-8e4f-5a6b7c8d9e0f';
    expectProblem(
      await upload(sim, acc.creds.ID.api.parts.front.replace(acc.creds.ID.id, other), acc.txToken, images.front()),
      403,
    );
    expectProblem(
      await upload(sim, acc.creds.ID.api.parts.front.replace(acc.accountId, other), acc.txToken, images.front()),
      404,
    );
  });

  it('Events 9: API uploads need consent — consent.obtained other than "yes" gets 403', async () => {
    const acc = await createAccount(sim, access, {
      userConsent: { consent: { obtained: 'no', obtainedAt: '2026-06-01T10:00:00Z' } },
    });
    expectProblem(await uploadPart(sim, acc, 'front', images.front()), 403, /consent/);
  });

  it('C2: a credential limited to WEB and SDK refuses API uploads (403)', async () => {
    const r = await call(sim, 'POST', '/api/v1/accounts', {
      token: access,
      body: accountBody({
        workflowDefinition: {
          key: '10013',
          credentials: [{ category: 'ID' }, { category: 'SELFIE', allowedChannels: ['WEB', 'SDK'] }],
        },
      }),
    });
    const id = r.json.workflowExecution.credentials.find((c: Json) => c.category === 'ID');
    const selfie = r.json.workflowExecution.credentials.find((c: Json) => c.category === 'SELFIE');
    const url = `${id.api.workflowExecution}/credentials/${selfie.id}/parts/FACE`;
    expectProblem(await upload(sim, url, id.api.token, images.face()), 403);
  });
});

describe('C1: update a part of a credential (PUT)', () => {
  it('Endpoints C1: PUT replaces an existing part and returns 200 with the same part id', async () => {
    const acc = await createAccount(sim, access);
    const first = await uploadPart(sim, acc, 'front', images.front());
    const second = await uploadPart(sim, acc, 'front', images.png(800, 500), 'PUT');
    expect(second.status).toBe(200);
    expect(second.json.part.id).toBe(first.json.part.id);
    const img = await fetch(`${sim.url}/api/v1/accounts/${acc.accountId}/credentials/${acc.creds.ID.id}/parts/FRONT`, {
      headers: { authorization: `Bearer ${access}` },
    });
    expect(Buffer.from(await img.arrayBuffer()).equals(images.png(800, 500))).toBe(true);
  });

  it('C1: updating a part that was never added gets 404', async () => {
    const acc = await createAccount(sim, access);
    expectProblem(await uploadPart(sim, acc, 'back', images.back(), 'PUT'), 404, /add it with POST/);
  });

  it('C1: the same image rules apply (non-image -> 400, 8001 px -> 400)', async () => {
    const acc = await createAccount(sim, access);
    await uploadPart(sim, acc, 'front', images.front());
    expectProblem(await uploadPart(sim, acc, 'front', Buffer.from('%PDF-1.4 nope'), 'PUT'), 400, /^Image file format/);
    expectProblem(await uploadPart(sim, acc, 'front', images.png(600, 8001), 'PUT'), 400, /^Image resolution/);
  });

  it('service facts: PUT on a DOCUMENT part gets 405 with an Allow header', async () => {
    const acc = await docAccount();
    const r = await upload(sim, acc.creds.DOCUMENT.api.parts.document, acc.txToken, images.front(), 'PUT');
    expectProblem(r, 405);
    expect(r.headers.get('allow')).toBe('POST, DELETE');
  });
});

describe('C3: upload prepared data', () => {
  const pd = {
    suffix: 'Ms',
    firstName: 'Ada',
    middleName: 'King',
    lastName: 'Lovelace',
    sex: 'F',
    dateOfBirth: '1990-12-10',
    socialSecurityNumber: '123-45-6789',
    nationality: 'GBR',
    email: 'ada@example.com',
    phoneNumber: '+441234567',
    phoneNumber2: '+441234568',
    personalNumber: 'P-1',
    address: {
      line1: '1 Analytical Row',
      line2: 'Flat 2',
      postalCode: 'N1 1AA',
      city: 'London',
      subdivision: 'LND',
      country: 'GBR',
    },
    id: {
      issuingDate: '2020-01-01',
      expiryDate: '2030-01-01',
      idNumber: 'X1234567',
      type: 'PASSPORT',
      subType: 'TAX_ID',
    },
    kyc: { registrationDate: '2024-01-01', registrationIpAddress: '203.0.113.1' },
    bank: {
      paymentMethod: 'EC',
      binNumber: '411111',
      lastDigits: '1111',
      accountNumber: 'DE00',
      routingNumber: '000',
      amount: 12.5,
      currency: 'EUR',
      transactionTime: '2026-01-01T10:00:00Z',
      transactionId: 't-1',
      ipAddress: '203.0.113.1',
    },
    business: {
      name: 'Engines Ltd',
      city: 'London',
      address: '1 Row',
      state: 'LND',
      country: 'GBR',
      registrationNumber: '123',
      searchId: 's-1',
      kybCapabilities: ['ADVERSE_MEDIA', 'COMPLIANCE_WATCHLIST'],
    },
  };

  it('Endpoints C3: POST .../parts/PREPARED_DATA with the full prepared data body returns 200 and api.parts {}', async () => {
    const acc = await dataAccount();
    const r = await call(sim, 'POST', acc.creds.DATA.api.parts.prepared_data, { token: acc.txToken, body: pd });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({
      credential: { id: acc.creds.DATA.id },
      part: { id: expect.any(String) },
      api: { token: acc.txToken, parts: {} },
    });
  });

  it('Prepared data: all members are optional ({} accepted)', async () => {
    const acc = await dataAccount();
    expect(
      (await call(sim, 'POST', acc.creds.DATA.api.parts.prepared_data, { token: acc.txToken, body: {} })).status,
    ).toBe(200);
  });

  const cases: Array<[string, Json, RegExp]> = [
    ['sex is M or F', { sex: 'X' }, /^sex: must be M or F/],
    ['dateOfBirth is an ISO 8601 date', { dateOfBirth: '10/12/1990' }, /^dateOfBirth: must be an ISO 8601 date/],
    ['dateOfBirth must be a real date', { dateOfBirth: '1990-02-31' }, /^dateOfBirth/],
    ['email has email format', { email: 'not-an-email' }, /^email: must be an email address/],
    ['nationality is a country code', { nationality: 'germany' }, /^nationality/],
    ['firstName is a string', { firstName: 7 }, /^firstName: must be a string/],
    ['address members are strings', { address: { city: 1 } }, /^address\.city/],
    ['id.expiryDate is a date', { id: { expiryDate: 'soon' } }, /^id\.expiryDate/],
    ['bank.amount is a number', { bank: { amount: '12' } }, /^bank\.amount: must be a number/],
    ['bank.transactionTime is a timestamp', { bank: { transactionTime: '2026-01-01' } }, /^bank\.transactionTime/],
    [
      'business.kybCapabilities is an array of strings',
      { business: { kybCapabilities: 'ADVERSE_MEDIA' } },
      /^business\.kybCapabilities/,
    ],
  ];
  for (const [rule, body, re] of cases) {
    it(`Prepared data: ${rule} (400 otherwise)`, async () => {
      const acc = await dataAccount();
      expectProblem(
        await call(sim, 'POST', acc.creds.DATA.api.parts.prepared_data, { token: acc.txToken, body }),
        400,
        re,
      );
    });
  }

  it('Prepared data: members the spec does not list are accepted, at the top and inside objects', async () => {
    const acc = await dataAccount();
    const r = await call(sim, 'POST', acc.creds.DATA.api.parts.prepared_data, {
      token: acc.txToken,
      body: {
        firstName: 'Ada',
        placeOfBirth: 'London',
        address: { line1: 'x', district: 'Camden' },
        bank: { iban: 'GB00' },
      },
    });
    expect(r.status).toBe(200);
  });

  it('Prepared data: malformed JSON gets 400', async () => {
    const acc = await dataAccount();
    expectProblem(
      await call(sim, 'POST', acc.creds.DATA.api.parts.prepared_data, {
        token: acc.txToken,
        raw: '{"firstName":',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      /Malformed JSON/,
    );
  });

  it('Prepared data: a JSON body over 1 MB gets 413', async () => {
    const acc = await dataAccount();
    expectProblem(
      await call(sim, 'POST', acc.creds.DATA.api.parts.prepared_data, {
        token: acc.txToken,
        body: { firstName: 'x'.repeat(1_100_000) },
      }),
      413,
    );
  });

  it('Prepared data: PREPARED_DATA on a non-DATA credential gets 400', async () => {
    const acc = await createAccount(sim, access);
    const url = acc.creds.ID.api.parts.front.replace(/FRONT$/, 'PREPARED_DATA');
    expectProblem(await call(sim, 'POST', url, { token: acc.txToken, body: {} }), 400, /DATA credential/);
  });

  it('Results: extraction comes from the prepared data (names, date of birth)', async () => {
    const acc = await dataAccount();
    await call(sim, 'POST', acc.creds.DATA.api.parts.prepared_data, { token: acc.txToken, body: pd });
    expect((await call(sim, 'PUT', acc.creds.DATA.api.workflowExecution, { token: acc.txToken })).status).toBe(200);
    const res = await waitFor(async () => {
      const r = await resultOf(acc);
      return r.workflow.status === 'PROCESSED' ? r : undefined;
    });
    expect(res.capabilities.extraction[0].data).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      middleName: 'King',
      dateOfBirth: '1990-12-10',
      documentNumber: 'X1234567',
    });
    expect(res.capabilities.extraction[0].credentials[0]).toMatchObject({ id: acc.creds.DATA.id, category: 'DATA' });
    expect(Object.keys(res.capabilities)).toEqual(
      expect.arrayContaining(['ekycCheck', 'ekycVerification', 'emailVerification', 'phoneVerification']),
    );
  });
});

describe('C4: upload a document (images or a single PDF)', () => {
  it('Endpoints C4: POST to api.parts.document with one PDF returns 200', async () => {
    const acc = await docAccount();
    const r = await upload(
      sim,
      acc.creds.DOCUMENT.api.parts.document,
      acc.txToken,
      pdfReport('Utility bill', ['Ada Lovelace']),
    );
    expect(r.status, r.text).toBe(200);
    expect(r.json.api.parts.document).toEqual({ '1': expect.any(String) });
  });

  it('C4: several images make a multi-page document', async () => {
    const acc = await docAccount();
    const r = await upload(sim, acc.creds.DOCUMENT.api.parts.document, acc.txToken, [images.front(), images.back()]);
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.json.api.parts.document)).toEqual(['1', '2']);
  });

  it('C4: a PDF must be the only file (PDF with an image gets 400)', async () => {
    const acc = await docAccount();
    expectProblem(
      await upload(sim, acc.creds.DOCUMENT.api.parts.document, acc.txToken, [pdfReport('x', []), images.front()]),
      400,
      /PDF must be the only file/,
    );
  });

  it('C4: something that is neither an image nor a PDF gets 400', async () => {
    const acc = await docAccount();
    expectProblem(
      await upload(sim, acc.creds.DOCUMENT.api.parts.document, acc.txToken, Buffer.from('plain text')),
      400,
      /^Document file format/,
    );
  });

  it('C4: a document larger than 15 MB gets 400', async () => {
    const acc = await docAccount();
    const big = Buffer.alloc(15 * 1024 * 1024 + 10, 32);
    Buffer.from('%PDF-1.4\n').copy(big);
    expectProblem(
      await upload(sim, acc.creds.DOCUMENT.api.parts.document, acc.txToken, big),
      400,
      /^Document file size/,
    );
  });
});

describe('C5: finalize and the order of operations', () => {
  it('Order of operations step 3: finalization refuses missing required credentials with a clear 400', async () => {
    const acc = await createAccount(sim, access);
    await uploadPart(sim, acc, 'front', images.front());
    expectProblem(
      await call(sim, 'PUT', acc.creds.ID.api.workflowExecution, { token: acc.txToken }),
      400,
      /^Cannot finalize: required credentials are missing: SELFIE \(FACE\)$/,
    );
  });

  it('Endpoints C5: PUT on the workflow execution returns 200 {timestamp, account{id}, workflowExecution{id}} and status becomes ACQUIRED', async () => {
    const s = await start({ processingDelayMs: 60_000 });
    try {
      const t = await token(s);
      const acc = await createAccount(s, t);
      await upload(s, acc.creds.ID.api.parts.front, acc.txToken, images.front());
      await upload(s, acc.creds.SELFIE.api.parts.face, acc.txToken, images.face());
      const r = await call(s, 'PUT', acc.creds.ID.api.workflowExecution, { token: acc.txToken });
      expect(r.status).toBe(200);
      expect(r.json).toEqual({
        timestamp: expect.any(String),
        account: { id: acc.accountId },
        workflowExecution: { id: acc.executionId },
      });
      const st = await statusOf(s, t, acc);
      expect(st.json.workflowExecution.status).toBe('ACQUIRED');
    } finally {
      await s.close();
    }
  });

  it('States: INITIATED -> ACQUIRED -> PROCESSED after the processing delay; results complete only after PROCESSED', async () => {
    const acc = await createAccount(sim, access);
    expect((await resultOf(acc)).workflow.status).toBe('INITIATED');
    expect((await resultOf(acc)).decision).toBeUndefined();
    await uploadPart(sim, acc, 'front', images.front());
    await uploadPart(sim, acc, 'face', images.face());
    await call(sim, 'PUT', acc.creds.ID.api.workflowExecution, { token: acc.txToken });
    const done = await waitFor(async () => {
      const r = await resultOf(acc);
      return r.workflow.status === 'PROCESSED' ? r : undefined;
    });
    expect(done.decision.type).toEqual(expect.any(String));
    expect(Date.parse(done.completedAt)).toBeGreaterThanOrEqual(Date.parse(done.startedAt));
  });

  it('Order of operations: finalizing twice gets 400 (already finalized)', async () => {
    const acc = await createAccount(sim, access);
    await uploadPart(sim, acc, 'front', images.front());
    await uploadPart(sim, acc, 'face', images.face());
    expect((await call(sim, 'PUT', acc.creds.ID.api.workflowExecution, { token: acc.txToken })).status).toBe(200);
    expectProblem(
      await call(sim, 'PUT', acc.creds.ID.api.workflowExecution, { token: acc.txToken }),
      400,
      /already finalized/,
    );
  });

  it('Order of operations: uploads after finalization get 400', async () => {
    const acc = await createAccount(sim, access);
    await uploadPart(sim, acc, 'front', images.front());
    await uploadPart(sim, acc, 'face', images.face());
    await call(sim, 'PUT', acc.creds.ID.api.workflowExecution, { token: acc.txToken });
    expectProblem(
      await uploadPart(sim, acc, 'back', images.back()),
      400,
      /only while the workflow execution is INITIATED/,
    );
  });

  it('Order of operations step 1: an account create must come first — credential ops on an unknown execution get 403/404', async () => {
    const acc = await createAccount(sim, access);
    const unknown = acc.creds.ID.api.workflowExecution.replace(acc.executionId, '8d0c1f7e-1a2b-4c3d-8e4f-5a6b7c8d9e0f');
    expectProblem(await call(sim, 'PUT', unknown, { token: acc.txToken }), 403);
  });

  it('C5: a DATA-only workflow needs the prepared data before finalization', async () => {
    const acc = await dataAccount();
    expectProblem(
      await call(sim, 'PUT', acc.creds.DATA.api.workflowExecution, { token: acc.txToken }),
      400,
      /DATA \(PREPARED_DATA\)/,
    );
  });
});

describe('C6, C7: deletion (irreversible)', () => {
  it('Endpoints C6: DELETE .../parts/{classifier} removes one part; R1 then gets 404', async () => {
    const acc = await createAccount(sim, access);
    const up = await uploadPart(sim, acc, 'back', images.back());
    const r = await call(sim, 'DELETE', acc.creds.ID.api.parts.back, { token: acc.txToken });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      credential: { id: acc.creds.ID.id },
      part: { id: up.json.part.id },
      api: { token: acc.txToken, parts: {} },
    });
    expectProblem(
      await call(sim, 'GET', `/api/v1/accounts/${acc.accountId}/credentials/${acc.creds.ID.id}/parts/BACK`, {
        token: access,
      }),
      404,
    );
  });

  it('C6: deleting a part that does not exist gets 404', async () => {
    const acc = await createAccount(sim, access);
    expectProblem(await call(sim, 'DELETE', acc.creds.ID.api.parts.back, { token: acc.txToken }), 404);
  });

  it('Notes: deletion is irreversible — the deleted part cannot be updated (C1 -> 404) and the execution cannot be finalized without it', async () => {
    const acc = await createAccount(sim, access);
    await uploadPart(sim, acc, 'front', images.front());
    await uploadPart(sim, acc, 'face', images.face());
    await call(sim, 'DELETE', acc.creds.ID.api.parts.front, { token: acc.txToken });
    expectProblem(await uploadPart(sim, acc, 'front', images.front(), 'PUT'), 404);
    expectProblem(
      await call(sim, 'PUT', acc.creds.ID.api.workflowExecution, { token: acc.txToken }),
      400,
      /ID \(FRONT\)/,
    );
  });

  it('Endpoints C7: DELETE .../credentials/{credentialId} deletes all pages of a credential', async () => {
    const acc = await createAccount(sim, access);
    await uploadPart(sim, acc, 'front', images.front());
    await uploadPart(sim, acc, 'back', images.back());
    const r = await call(sim, 'DELETE', `${acc.creds.ID.api.workflowExecution}/credentials/${acc.creds.ID.id}`, {
      token: acc.txToken,
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ credential: { id: acc.creds.ID.id }, api: { parts: {} } });
    for (const cls of ['FRONT', 'BACK'])
      expectProblem(
        await call(sim, 'GET', `/api/v1/accounts/${acc.accountId}/credentials/${acc.creds.ID.id}/parts/${cls}`, {
          token: access,
        }),
        404,
      );
  });

  it('C6 after processing: the result no longer lists the deleted part and R1 gets 404', async () => {
    const acc = await createAccount(sim, access);
    await uploadPart(sim, acc, 'front', images.front());
    await uploadPart(sim, acc, 'back', images.back());
    await uploadPart(sim, acc, 'face', images.face());
    await call(sim, 'PUT', acc.creds.ID.api.workflowExecution, { token: acc.txToken });
    await waitFor(async () => ((await resultOf(acc)).workflow.status === 'PROCESSED' ? true : undefined));
    expect((await call(sim, 'DELETE', acc.creds.SELFIE.api.parts.face, { token: acc.txToken })).status).toBe(200);
    const res = await resultOf(acc);
    expect(res.credentials.find((c: Json) => c.category === 'SELFIE').parts).toEqual([]);
    expectProblem(
      await call(sim, 'GET', `/api/v1/accounts/${acc.accountId}/credentials/${acc.creds.SELFIE.id}/parts/FACE`, {
        token: access,
      }),
      404,
    );
  });
});
