import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdvClient } from '@/lib/idv/client';
import { IdvConfigError, IdvHttpError, IdvValidationError, isNotFound } from '@/lib/idv/errors';
import type { AccountRequest, AccountResponse } from '@/lib/idv/schemas';
import { startSimulator, type RunningSimulator } from '@/lib/simulator';
import { imageFor, solidPng } from '@/lib/simulator/images';
import { startTestSimulator } from '../support/simulator';
import { waitFor } from '../support/wait';
import { testConfig } from '../support/idv/fault-server';
import { idCardAndSelfieWorkflow } from '../support/idv/wire-samples';

/**
 * Verdict's client (lib/idv/client.ts) against the simulator over real HTTP: every operation of
 * the spec (T, A1, A2, C1-C7, R1-R12) and health, its success and the documented errors the
 * simulator answers with. The hand-written stub (tests/unit/idv/client.test.ts) is kept only for
 * what the simulator cannot do on demand.
 */
let sim: RunningSimulator;
let idv: IdvClient;

const front = () => imageFor('document-front', 7).bytes;
const back = () => imageFor('document-back', 7).bytes;
const face = () => imageFor('face', 21).bytes;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

const request = (over: Partial<AccountRequest> = {}): AccountRequest => ({
  customerInternalReference: `client-${Math.random().toString(36).slice(2, 10)}`,
  userReference: 'user-7',
  workflowDefinition: idCardAndSelfieWorkflow('DEU'),
  userConsent: { consent: { obtained: 'yes', obtainedAt: '2026-06-01T10:00:00Z' } },
  ...over,
});
const credentialOf = (acc: AccountResponse, category: string) =>
  acc.workflowExecution.credentials.find((c) => c.category === category)!;
const apiOf = (acc: AccountResponse, category: string) => credentialOf(acc, category).api!;

function clientFor(s: RunningSimulator) {
  return new IdvClient(
    { ...testConfig(s.url), clientId: s.clientId, clientSecret: s.clientSecret, userAgent: 'Verdict-Test/1.0' },
    { retry: { baseDelayMs: 5, maxDelayMs: 20 } },
  );
}
/** The call's IdvHttpError (fails when it resolves or throws anything else). */
async function httpError(p: Promise<unknown>): Promise<IdvHttpError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(IdvHttpError);
  return err as IdvHttpError;
}
/** A2-style journey: create, upload front, back and face, finalize; resolves once PROCESSED. */
async function processedJourney(over: Partial<AccountRequest> = {}) {
  const acc = await idv.createAccount(request(over));
  const id = apiOf(acc, 'ID'),
    selfie = apiOf(acc, 'SELFIE');
  await idv.addPart(id.token!, id.parts!.front!, 'FRONT', front(), 'image/png');
  await idv.addPart(id.token!, id.parts!.back!, 'BACK', back(), 'image/png');
  await idv.addPart(selfie.token!, selfie.parts!.face!, 'FACE', face(), 'image/jpeg');
  await idv.finalize(id.token!, id.workflowExecution!);
  const a = acc.account.id!,
    w = acc.workflowExecution.id;
  await waitFor(async () => (await idv.getStatus(a, w)).workflowExecution.status === 'PROCESSED');
  return { acc, a, w };
}

beforeAll(async () => {
  sim = await startTestSimulator({
    seed: 'idv-client',
    processingDelayMs: 40,
    sweepIntervalMs: 15,
    rateLimits: { accountBurst: 10_000, retrievalBurst: 100_000 },
  });
  idv = clientFor(sim);
});
afterAll(() => sim.close());

describe('T: the access token', () => {
  it('is a JWT fetched once and reused', async () => {
    const t = await idv.getToken();
    expect(t.split('.')).toHaveLength(3);
    const before = idv.tokens.tokenRequests;
    await idv.getExecutionById((await idv.listExecutions({ size: 1 })).workflowExecutions[0].workflow.id);
    expect(await idv.getToken()).toBe(t);
    expect(idv.tokens.tokenRequests).toBe(before);
  });

  it('wrong client credentials: 401', async () => {
    const wrong = new IdvClient({ ...testConfig(sim.url), clientId: sim.clientId, clientSecret: 'not-the-secret' });
    expect((await httpError(wrong.getToken())).status).toBe(401);
  });

  it('a token the service no longer accepts (restart: new signing key): 401, a new token, the call succeeds', async () => {
    const own = await startTestSimulator({ seed: 'restart' });
    const port = new URL(own.url).port;
    const client = clientFor(own);
    await client.listExecutions({ size: 1 });
    const first = await client.getToken();
    await own.close();
    const again = await startSimulator({
      port: Number(port),
      clientId: own.clientId,
      clientSecret: own.clientSecret,
      executions: 10,
      anchor: new Date('2026-06-01T12:00:00Z'),
    });
    try {
      expect((await client.listExecutions({ size: 1 })).workflowExecutions).toHaveLength(1);
      expect(await client.getToken()).not.toBe(first);
      expect(again.stats().byStatus['401']).toBe(1);
    } finally {
      await again.close();
    }
  });

  it('over the token endpoint’s 10/s: 429, waited out', async () => {
    const before = sim.stats().rates.token.rejected;
    const clients = Array.from({ length: 12 }, () => clientFor(sim));
    await Promise.all(clients.map((c) => c.getToken()));
    expect(sim.stats().rates.token.rejected).toBeGreaterThan(before);
  });
});

describe('A1, A2: accounts', () => {
  it('A1 creates an account: upload URLs, transaction token, SDK token and the web address', async () => {
    const acc = await idv.createAccount(request());
    expect(acc.account.id!).toMatch(/^[0-9a-f-]{36}$/);
    expect(apiOf(acc, 'ID').parts).toEqual({
      front: expect.stringMatching(/\/parts\/FRONT$/),
      back: expect.stringMatching(/\/parts\/BACK$/),
    });
    expect(acc.sdk?.token).toEqual(expect.any(String));
    expect((acc.web as { href?: string }).href).toContain(`/web/${acc.workflowExecution.id}?token=`);
  });

  it('A1 refuses a bad body before sending; the service’s own rules come back as 400', async () => {
    const before = sim.stats().requests;
    const invalid = await idv
      .createAccount({ customerInternalReference: '', workflowDefinition: { key: 1 } })
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(IdvValidationError);
    expect(sim.stats().requests).toBe(before);
    const err = await httpError(idv.createAccount(request({ callbackUrl: 'https://hooks.elsewhere.example.org/x' })));
    expect(err.status).toBe(400);
    expect(err.detail).toMatch(/callbackUrl/);
  });

  it('A1 on a 429 burst: retried until accepted', async () => {
    sim.faults.burst429 = 2;
    const acc = await idv.createAccount(request());
    expect(acc.workflowExecution.id).toBeTruthy();
    expect(sim.faults.burst429).toBe(0);
  });

  it('A2 adds an execution to the account (R9 lists both); an unknown account is 404', async () => {
    const acc = await idv.createAccount(request());
    const next = await idv.updateAccount(acc.account.id!, request());
    expect(next.account.id).toBe(acc.account.id!);
    expect(next.workflowExecution.id).not.toBe(acc.workflowExecution.id);
    const ids = (await idv.getAccount(acc.account.id!)).workflowExecutions?.map((x) => x.id);
    expect(ids).toEqual(expect.arrayContaining([acc.workflowExecution.id, next.workflowExecution.id]));
    const err = await httpError(idv.updateAccount(crypto.randomUUID(), request()));
    expect(err.status).toBe(404);
    expect(isNotFound(err)).toBe(true);
  });
});

describe('C1-C7: credentials with the transaction token', () => {
  it('C2 adds a part at the issued URL; C1 replaces it (same part id); R1 returns the new bytes', async () => {
    const acc = await idv.createAccount(request());
    const id = apiOf(acc, 'ID');
    const added = await idv.addPart(id.token!, id.parts!.front!, 'FRONT', front(), 'image/png');
    const other = imageFor('document-front', 9).bytes;
    const replaced = await idv.updatePart(
      id.token!,
      {
        accountId: acc.account.id!,
        workflowExecutionId: acc.workflowExecution.id,
        credentialId: credentialOf(acc, 'ID').id!,
      },
      'FRONT',
      other,
      'image/png',
    );
    expect(replaced.part?.id).toBe(added.part?.id);
    expect(replaced.api?.parts?.front?.['1']).toMatch(/\/parts\/FRONT$/);
    const part = await idv.getPart(acc.account.id!, credentialOf(acc, 'ID').id!, 'FRONT');
    expect(part.contentType).toBe('image/png');
    expect(Buffer.from(part.bytes).equals(other)).toBe(true);
  });

  it('C2 and C1 errors: 400 upload rule, 401 wrong token kind, 403 another execution, 404 nothing to replace, 405 on a DOCUMENT', async () => {
    const acc = await idv.createAccount(request());
    const id = apiOf(acc, 'ID');
    const small = await httpError(idv.addPart(id.token!, id.parts!.front!, 'FRONT', solidPng(400, 300), 'image/png'));
    expect(small.status).toBe(400);
    expect(small.detail).toMatch(/Document image resolution/);
    expect(
      (await httpError(idv.addPart(acc.sdk!.token!, id.parts!.front!, 'FRONT', front(), 'image/png'))).status,
    ).toBe(401);
    const other = await idv.createAccount(request());
    expect(
      (await httpError(idv.addPart(apiOf(other, 'ID').token!, id.parts!.front!, 'FRONT', front(), 'image/png'))).status,
    ).toBe(403);
    expect((await httpError(idv.updatePart(id.token!, id.parts!.back!, 'BACK', back(), 'image/png'))).status).toBe(404);
    const docs = await idv.createAccount(
      request({ workflowDefinition: { key: '10055', credentials: [{ category: 'DOCUMENT' }] } }),
    );
    const doc = apiOf(docs, 'DOCUMENT');
    const wrongVerb = await httpError(
      idv.updatePart(doc.token!, doc.parts!.document!, 'DOCUMENT', front(), 'image/png'),
    );
    expect(wrongVerb.status).toBe(405);
    expect(wrongVerb.allow).toBe('POST, DELETE');
  });

  it('C2 refuses a wrong file type, an empty file and one over 15 MB before sending', async () => {
    const acc = await idv.createAccount(request());
    const id = apiOf(acc, 'ID');
    const before = sim.stats().requests;
    for (const [bytes, type] of [
      [front(), 'image/gif'],
      [new Uint8Array(), 'image/png'],
      [new Uint8Array(15 * 1024 * 1024 + 1), 'image/png'],
    ] as const)
      await expect(idv.addPart(id.token!, id.parts!.front!, 'FRONT', bytes, type)).rejects.toBeInstanceOf(
        IdvValidationError,
      );
    expect(sim.stats().requests).toBe(before);
  });

  it('C3 uploads prepared data to a DATA credential; 400 on another category; invalid data refused before sending', async () => {
    const acc = await idv.createAccount(
      request({ workflowDefinition: { key: '10031', credentials: [{ category: 'DATA' }, { category: 'ID' }] } }),
    );
    const data = apiOf(acc, 'DATA');
    const r = await idv.uploadPreparedData(data.token!, data.parts!.prepared_data!, {
      firstName: 'Erika',
      lastName: 'Mustermann',
      dateOfBirth: '1964-08-12',
    });
    expect(r.part?.id).toBeTruthy();
    expect(r.api?.parts).toEqual({});
    const wrong = apiOf(acc, 'ID');
    const err = await httpError(
      idv.uploadPreparedData(wrong.token!, wrong.parts!.front!.replace(/FRONT$/, 'PREPARED_DATA'), { firstName: 'X' }),
    );
    expect(err.status).toBe(400);
    expect(err.detail).toMatch(/DATA credential/);
    await expect(
      idv.uploadPreparedData(data.token!, data.parts!.prepared_data!, { dateOfBirth: 'yesterday' }),
    ).rejects.toBeInstanceOf(IdvValidationError);
  });

  it('C4 uploads a document (a PDF); a PDF with other pages is 400; a text file is refused before sending', async () => {
    const acc = await idv.createAccount(
      request({ workflowDefinition: { key: '10055', credentials: [{ category: 'DOCUMENT' }] } }),
    );
    const doc = apiOf(acc, 'DOCUMENT');
    const r = await idv.uploadDocument(doc.token!, doc.parts!.document!, PDF, 'application/pdf');
    expect(r.api?.parts?.document?.['1']).toMatch(/\/parts\/DOCUMENT$/);
    const err = await httpError(idv.uploadDocument(doc.token!, doc.parts!.document!, front(), 'image/png'));
    expect(err.status).toBe(400);
    expect(err.detail).toMatch(/already a PDF/);
    await expect(
      idv.uploadDocument(doc.token!, doc.parts!.document!, Buffer.from('hello'), 'text/plain'),
    ).rejects.toBeInstanceOf(IdvValidationError);
  });

  it('C6 deletes one part (404 the second time); C7 deletes the credential’s parts (R1 404 after)', async () => {
    const acc = await idv.createAccount(request());
    const id = apiOf(acc, 'ID');
    await idv.addPart(id.token!, id.parts!.front!, 'FRONT', front(), 'image/png');
    await idv.addPart(id.token!, id.parts!.back!, 'BACK', back(), 'image/png');
    const deleted = await idv.deletePart(id.token!, id.parts!.back!, 'BACK');
    expect(deleted.api?.parts?.back).toBeUndefined();
    expect(deleted.api?.parts?.front).toBeDefined();
    expect((await httpError(idv.deletePart(id.token!, id.parts!.back!, 'BACK'))).status).toBe(404);
    const all = await idv.deleteCredential(id.token!, id.parts!.front!);
    expect(all.api?.parts).toEqual({});
    const gone = await httpError(idv.getPart(acc.account.id!, credentialOf(acc, 'ID').id!, 'FRONT'));
    expect(gone.status).toBe(404);
  });

  it('C5 finalizes once complete: 400 while a credential is missing, 400 when already finalized', async () => {
    const acc = await idv.createAccount(request());
    const id = apiOf(acc, 'ID'),
      selfie = apiOf(acc, 'SELFIE');
    await idv.addPart(id.token!, id.parts!.front!, 'FRONT', front(), 'image/png');
    const early = await httpError(idv.finalize(id.token!, id.workflowExecution!));
    expect(early.status).toBe(400);
    expect(early.detail).toMatch(/SELFIE \(FACE\)/);
    await idv.addPart(selfie.token!, selfie.parts!.face!, 'FACE', face(), 'image/jpeg');
    const done = await idv.finalize(id.token!, {
      accountId: acc.account.id!,
      workflowExecutionId: acc.workflowExecution.id,
    });
    expect(done.workflowExecution?.id).toBe(acc.workflowExecution.id);
    const twice = await httpError(idv.finalize(id.token!, id.workflowExecution!));
    expect(twice.status).toBe(400);
    expect(twice.detail).toMatch(/already finalized/);
  });
});

describe('R1-R12: retrieval with the access token', () => {
  let a: string, w: string, idCredential: string;
  beforeAll(async () => {
    const j = await processedJourney();
    ({ a, w } = j);
    idCredential = credentialOf(j.acc, 'ID').id!;
  });

  it('R1 returns the image; 400 for a classifier that is not one; 404 for another account', async () => {
    const part = await idv.getPart(a, idCredential, 'FRONT');
    expect(Buffer.from(part.bytes).equals(front())).toBe(true);
    expect((await httpError(idv.getPart(a, idCredential, 'PASSPORT'))).status).toBe(400);
    expect((await httpError(idv.getPart(crypto.randomUUID(), idCredential, 'FRONT'))).status).toBe(404);
  });

  it('R2 and R4 return the same result; R5 the status; 404 for an unknown execution', async () => {
    const r2 = await idv.getExecution(a, w);
    expect(r2.workflow.status).toBe('PROCESSED');
    expect(r2.decision?.type).toEqual(expect.any(String));
    expect((await idv.getExecutionById(w)).workflow.id).toBe(w);
    expect((await idv.getStatus(a, w)).workflowExecution).toMatchObject({ id: w, status: 'PROCESSED' });
    for (const call of [
      () => idv.getExecution(a, crypto.randomUUID()),
      () => idv.getExecutionById(crypto.randomUUID()),
      () => idv.getStatus(a, crypto.randomUUID()),
    ])
      expect((await httpError(call())).status).toBe(404);
  });

  it('R6 gives a working link to the PDF report; R7 the steps; R8 the rule executions', async () => {
    const report = await idv.generateReport(a, w);
    expect(report.workflowId).toBe(w);
    const pdf = await fetch(report.presignedUrl!);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    expect((await idv.getSteps(a, w)).steps.length).toBeGreaterThan(0);
    expect((await idv.getRules(a, w)).executions[0].rulesets?.length).toBeGreaterThan(0);
  });

  it('R6, R7, R8 are 404 before the execution is processed; R11 is 400 then', async () => {
    const acc = await idv.createAccount(request());
    const [ia, iw] = [acc.account.id!, acc.workflowExecution.id];
    for (const call of [() => idv.generateReport(ia, iw), () => idv.getSteps(ia, iw), () => idv.getRules(ia, iw)])
      expect((await httpError(call())).status).toBe(404);
    const early = await httpError(idv.setFeedback(ia, iw, { status: 'NOT_FRAUD' }));
    expect(early.status).toBe(400);
    expect(early.detail).toMatch(/PROCESSED/);
  });

  it('R11 records feedback (R2 shows it); FRAUD without a reason is refused before sending', async () => {
    await idv.setFeedback(a, w, { status: 'FRAUD', reason: 'IDENTITY_FRAUD' });
    expect((await idv.getExecution(a, w)).feedback).toMatchObject({ status: 'FRAUD', reason: 'IDENTITY_FRAUD' });
    const before = sim.stats().requests;
    await expect(idv.setFeedback(a, w, { status: 'FRAUD' })).rejects.toBeInstanceOf(IdvValidationError);
    expect(sim.stats().requests).toBe(before);
  });

  it('R12 pages newest first with page and size; bounds are checked before sending', async () => {
    const page = await idv.listExecutions({ page: 1, size: 5 });
    expect(page.workflowExecutions).toHaveLength(5);
    expect(page.skipped).toEqual([]);
    const created = page.workflowExecutions.map((x) => x.createdAt!);
    expect([...created].sort().reverse()).toEqual(created);
    const second = await idv.listExecutions({ page: 2, size: 5 });
    expect(second.workflowExecutions[0].workflow.id).not.toBe(page.workflowExecutions[0].workflow.id);
    await expect(idv.listExecutions({ size: 101 })).rejects.toBeInstanceOf(IdvValidationError);
  });

  it('R12 on a 503: retried until answered', async () => {
    sim.faults.errorRate = 1;
    setTimeout(() => (sim.faults.errorRate = 0), 60);
    expect((await idv.listExecutions({ size: 1 })).workflowExecutions).toHaveLength(1);
    expect(sim.stats().byStatus['503']).toBeGreaterThan(0);
  });

  it('R9 returns the account and its executions; R10 deletes it all (R9 404, R2 wiped, R1 404)', async () => {
    const j = await processedJourney();
    const account = await idv.getAccount(j.a);
    expect(account.account?.id).toBe(j.a);
    expect(account.workflowExecutions?.map((x) => x.id)).toEqual([j.w]);
    await idv.deleteAccount(j.a);
    expect((await httpError(idv.getAccount(j.a))).status).toBe(404);
    expect((await idv.getExecution(j.a, j.w)).wipedOutAt).toEqual(expect.any(String));
    expect((await httpError(idv.getPart(j.a, credentialOf(j.acc, 'ID').id!, 'FRONT'))).status).toBe(404);
    expect((await httpError(idv.deleteAccount(j.a))).status).toBe(404);
  });

  it('R3 deletes one execution’s data: the result stays with wipedOutAt, steps and images are 404', async () => {
    const j = await processedJourney();
    await idv.deleteExecution(j.a, j.w);
    const r = await idv.getExecution(j.a, j.w);
    expect(r.wipedOutAt).toEqual(expect.any(String));
    expect(r.decision?.type).toEqual(expect.any(String));
    expect((await httpError(idv.getSteps(j.a, j.w))).status).toBe(404);
    expect((await httpError(idv.deleteExecution(j.a, crypto.randomUUID()))).status).toBe(404);
  });
});

describe('health and transport security', () => {
  it('health is UP, DEGRADED under injected faults', async () => {
    expect((await idv.health()).status).toBe('UP');
    sim.faults.stallProcessing = true;
    try {
      expect(await idv.health()).toMatchObject({ status: 'DEGRADED', details: { processing: 'DEGRADED' } });
    } finally {
      sim.faults.stallProcessing = false;
    }
  });

  it('refuses to send to a plain-http address outside loopback, whatever the service issued', async () => {
    const acc = await idv.createAccount(request());
    const id = apiOf(acc, 'ID');
    const issued = id.parts!.front!.replace(/^http:\/\/127\.0\.0\.1:\d+/, 'http://uploads.example.com');
    const before = sim.stats().requests;
    await expect(idv.addPart(id.token!, issued, 'FRONT', front(), 'image/png')).rejects.toBeInstanceOf(IdvConfigError);
    expect(sim.stats().requests).toBe(before);
  });
});
