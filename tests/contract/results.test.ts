// The workflow execution result, capability entries, steps and rules: shapes of the spec's tables
// and consistency rules of service-facts.md, checked over every generated execution served by R12.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '@/lib/simulator';
import { ALL_CAPABILITIES, CAPABILITY_PARENT, LABELS } from '@/lib/simulator/catalog';
import { checkDigit } from '@/lib/simulator/person';
import { call, completeJourney, images, startSignedIn, type Json } from './helpers';

let sim: RunningSimulator;
let access: string;
let all: Json[];
const COUNT = 2500;

beforeAll(async () => {
  ({ sim, access } = await startSignedIn({ executions: COUNT, seed: 'results' }));
  all = [];
  for (let page = 1; page <= COUNT / 100; page++)
    all.push(
      ...(await call(sim, 'GET', `/api/v1/workflow-executions?size=100&page=${page}`, { token: access })).json
        .workflowExecutions,
    );
}, 60_000);
afterAll(() => sim.close());

const processed = () => all.filter((e) => e.workflow.status === 'PROCESSED');
const entries = (e: Json): Array<[string, Json]> =>
  Object.entries(e.capabilities ?? {}).flatMap(([k, list]) => (list as Json[]).map((x) => [k, x] as [string, Json]));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('Workflow execution result (fields of the spec table)', () => {
  it('workflow.id, account.id and credential ids are UUIDs; timestamps are ISO 8601', () => {
    for (const e of all) {
      expect(e.workflow.id).toMatch(UUID);
      expect(e.account.id).toMatch(UUID);
      for (const c of e.credentials) expect(c.id).toMatch(UUID);
      for (const k of ['createdAt', 'startedAt', 'completedAt', 'wipedOutAt'])
        if (e[k]) expect(new Date(e[k]).toISOString()).toBe(e[k]);
    }
  });

  it('workflow.status values: PROCESSED mostly, a few SESSION_EXPIRED / TOKEN_EXPIRED', () => {
    const counts: Record<string, number> = {};
    for (const e of all) counts[e.workflow.status] = (counts[e.workflow.status] ?? 0) + 1;
    expect(Object.keys(counts).sort()).toEqual(['PROCESSED', 'SESSION_EXPIRED', 'TOKEN_EXPIRED']);
    expect(counts.PROCESSED / COUNT).toBeGreaterThan(0.95);
  });

  it('workflow.definitionKey and originalDefinitionKey are strings; customerInternalReference always set', () => {
    for (const e of all) {
      expect(typeof e.workflow.definitionKey).toBe('string');
      expect(typeof e.workflow.originalDefinitionKey).toBe('string');
      expect(e.workflow.customerInternalReference.length).toBeGreaterThan(0);
      expect(e.workflow.customerInternalReference.length).toBeLessThanOrEqual(100);
      if (e.workflow.userReference !== undefined) expect(e.workflow.userReference.length).toBeLessThanOrEqual(100);
      if (e.workflow.reportingCriteria !== undefined)
        expect(e.workflow.reportingCriteria.length).toBeLessThanOrEqual(255);
    }
  });

  it('workflow.childIds and parentId link executions of the same account', () => {
    const byId = new Map(all.map((e) => [e.workflow.id, e]));
    const children = all.filter((e) => e.workflow.parentId);
    expect(children.length).toBeGreaterThan(0);
    for (const c of children) {
      const p = byId.get(c.workflow.parentId);
      if (!p) continue;
      expect(p.workflow.childIds).toContain(c.workflow.id);
      expect(p.account.id).toBe(c.account.id);
    }
  });

  it('credentials: id, category, label, clientIp, parts [{classifier, captureType}], reusableIdentity, consent', () => {
    const e = processed().find((x) => !x.wipedOutAt)!;
    for (const c of e.credentials) {
      expect(c).toMatchObject({
        id: expect.any(String),
        category: expect.any(String),
        label: expect.any(String),
        clientIp: expect.any(String),
        parts: expect.any(Array),
        reusableIdentity: { status: 'ID_NOT_FOUND', source: 'VENDOR' },
        consent: { decisionAccepted: true, collectedBy: expect.any(String) },
      });
      for (const p of c.parts) expect(p).toEqual({ classifier: expect.any(String), captureType: expect.any(String) });
    }
  });

  it('decision: type, details.label, risk.score (integer); top-level label usually equals the type', () => {
    for (const e of processed()) {
      expect(Number.isInteger(e.decision.risk.score)).toBe(true);
      if (e.decision.type !== 'NOT_EXECUTED' && e.decision.details.label !== 'OK')
        expect(e.decision.details.label).toBe(e.decision.type);
    }
  });

  it('decision.type mix is realistic: ~70% PASSED, ~20% WARNING, ~8% REJECTED, ~2% NOT_EXECUTED', () => {
    const counts: Record<string, number> = {};
    for (const e of all) counts[e.decision.type] = (counts[e.decision.type] ?? 0) + 1;
    const share = (k: string) => (counts[k] ?? 0) / COUNT;
    expect(share('PASSED')).toBeGreaterThan(0.6);
    expect(share('PASSED')).toBeLessThan(0.8);
    expect(share('WARNING')).toBeGreaterThan(0.12);
    expect(share('WARNING')).toBeLessThan(0.28);
    expect(share('REJECTED')).toBeGreaterThan(0.04);
    expect(share('REJECTED')).toBeLessThan(0.16);
    expect(share('NOT_EXECUTED')).toBeGreaterThan(0.005);
    expect(share('NOT_EXECUTED')).toBeLessThan(0.06);
  });

  it('risk.score lies in the default bands: PASSED 0-30, WARNING 31-70, REJECTED 71-100, NOT_EXECUTED -1', () => {
    for (const e of processed()) {
      const s = e.decision.risk.score;
      const band = { PASSED: [0, 30], WARNING: [31, 70], REJECTED: [71, 100], NOT_EXECUTED: [-1, -1] }[
        e.decision.type as string
      ]!;
      expect(s, `${e.workflow.id} ${e.decision.type}`).toBeGreaterThanOrEqual(band[0]);
      expect(s).toBeLessThanOrEqual(band[1]);
    }
  });

  it('expired executions: NOT_EXECUTED with the status as label and score -1 (or the older REJECTED/100)', () => {
    const expired = all.filter((e) => e.workflow.status !== 'PROCESSED');
    expect(expired.length).toBeGreaterThan(0);
    for (const e of expired) {
      if (e.decision.type === 'REJECTED') expect(e.decision.risk.score).toBe(100);
      else
        expect(e.decision).toEqual({
          type: 'NOT_EXECUTED',
          details: { label: e.workflow.status },
          risk: { score: -1 },
        });
    }
  });

  it('feedback: status NA, FRAUD, NOT_FRAUD with reasons from the list and providedAt', () => {
    const withFb = all.filter((e) => e.feedback);
    expect(withFb.length).toBeGreaterThan(10);
    expect(new Set(withFb.map((e) => e.feedback.status))).toEqual(new Set(['FRAUD', 'NOT_FRAUD', 'NA']));
    for (const e of withFb) {
      expect(new Date(e.feedback.providedAt).getTime()).toBeGreaterThan(0);
      if (e.feedback.status === 'FRAUD') expect(e.feedback.reason).not.toBe('NA');
    }
  });

  it('consent {obtained, obtainedAt} and captureClient {client, platform, version, osName, state, captureDetails}', () => {
    const e = processed().find((x) => x.captureClient && !x.wipedOutAt)!;
    expect(e.consent).toEqual({ obtained: 'yes', obtainedAt: expect.any(String) });
    expect(e.captureClient).toMatchObject({
      client: expect.any(String),
      platform: expect.any(String),
      version: expect.any(String),
      osName: expect.any(String),
    });
    expect(e.captureClient.state[0][0]).toBe('started');
    for (const d of e.captureClient.captureDetails[0])
      expect(d).toMatch(/^(front|back|face): (auto_capture|upload|manual_capture)$/);
  });

  it('steps.href links to R7; wiped executions carry wipedOutAt and no personal data', async () => {
    const e = processed().find((x) => !x.wipedOutAt)!;
    expect(e.steps.href).toBe(`${sim.url}/api/v1/accounts/${e.account.id}/workflow-executions/${e.workflow.id}/steps`);
    const wiped = all.filter((x) => x.wipedOutAt);
    expect(wiped.length).toBeGreaterThan(0);
    for (const w of wiped) {
      for (const [, entry] of entries(w)) expect(entry.data).toBeUndefined();
      for (const c of w.credentials) expect(c.parts).toEqual([]);
    }
  });
});

describe('Capability result entries', () => {
  it('every capability array of the spec occurs in the generated data', () => {
    const seen = new Set(all.flatMap((e) => Object.keys(e.capabilities ?? {})));
    for (const cap of ALL_CAPABILITIES) expect(seen.has(cap), cap).toBe(true);
  });

  it('an entry has id, credentials [{id, category, label}], decision {type, details.label}', () => {
    for (const e of processed())
      for (const [cap, x] of entries(e)) {
        if (cap === 'bankCheck' || cap === 'binCheck') expect(x.id).not.toMatch(UUID);
        else expect(x.id).toMatch(UUID);
        for (const c of x.credentials)
          expect(c).toEqual({ id: expect.any(String), category: expect.any(String), label: expect.any(String) });
        expect(x.decision).toEqual({
          type: expect.stringMatching(/^(PASSED|WARNING|REJECTED|NOT_EXECUTED)$/),
          details: { label: expect.any(String) },
        });
      }
  });

  it('entries of dataChecks, usability and masking carry no data member', () => {
    for (const e of processed())
      for (const cap of ['dataChecks', 'usability', 'masking'])
        for (const x of e.capabilities[cap] ?? []) expect(x.data).toBeUndefined();
  });

  it('labels come from the real label sets per capability and decision type (rare unknown labels allowed)', () => {
    let unknown = 0,
      total = 0;
    for (const e of processed())
      for (const [cap, x] of entries(e)) {
        // A documented set; an empty one (none documented) draws generic labels.
        const set = LABELS[cap as keyof typeof LABELS]?.[x.decision.type as 'PASSED'];
        if (!set?.length) continue;
        total++;
        if (!set.includes(x.decision.details.label)) unknown++;
      }
    expect(total).toBeGreaterThan(1000);
    expect(unknown / total).toBeLessThan(0.005);
  });

  it('dependency chain: when an upstream capability fails, the ones below are NOT_EXECUTED / PRECONDITION_NOT_FULFILLED', () => {
    let checked = 0;
    for (const e of processed()) {
      if (e.wipedOutAt) continue;
      const first = (cap: string) => e.capabilities[cap]?.[0];
      for (const [child, parent] of Object.entries(CAPABILITY_PARENT)) {
        const p = parent === 'usability' ? undefined : first(parent);
        const c = first(child);
        if (!p || !c) continue;
        if (p.decision.type === 'REJECTED' || p.decision.type === 'NOT_EXECUTED') {
          checked++;
          expect(c.decision.type, `${e.workflow.id} ${parent}->${child}`).toBe('NOT_EXECUTED');
        }
      }
      const idUsab = e.capabilities.usability?.find((u: Json) => u.credentials[0].category === 'ID');
      if (idUsab && (idUsab.decision.type === 'REJECTED' || idUsab.decision.type === 'NOT_EXECUTED')) {
        for (const cap of ['imageChecks', 'extraction', 'similarity'])
          if (first(cap))
            expect(first(cap).decision).toEqual({
              type: 'NOT_EXECUTED',
              details: { label: 'PRECONDITION_NOT_FULFILLED' },
            });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('top-level decision follows the capabilities: any REJECTED capability means REJECTED; WARNING means at least WARNING', () => {
    for (const e of processed()) {
      const types = entries(e).map(([, x]) => x.decision.type);
      if (types.includes('REJECTED')) expect(e.decision.type).toBe('REJECTED');
      else if (types.includes('WARNING')) expect(['WARNING', 'REJECTED']).toContain(e.decision.type);
    }
  });

  it('extraction data: names, dates (with parts), document number, MRZ with valid check digits for passports', () => {
    const passports = processed().filter(
      (e) => e.capabilities.extraction?.[0]?.data?.type === 'PASSPORT' && e.capabilities.extraction[0].data.mrz,
    );
    expect(passports.length).toBeGreaterThan(20);
    for (const e of passports) {
      const d = e.capabilities.extraction[0].data;
      expect(d).toMatchObject({
        firstName: expect.any(String),
        lastName: expect.any(String),
        dateOfBirth: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        documentNumber: expect.any(String),
        issuingCountry: expect.stringMatching(/^[A-Z]{3}$/),
      });
      expect(d.dateOfBirthParts).toEqual({
        year: Number(d.dateOfBirth.slice(0, 4)),
        month: Number(d.dateOfBirth.slice(5, 7)),
        day: Number(d.dateOfBirth.slice(8, 10)),
      });
      const l2 = d.mrz.line2 as string;
      expect(d.mrz.line1).toHaveLength(44);
      expect(l2).toHaveLength(44);
      expect(l2[9]).toBe(checkDigit(l2.slice(0, 9)));
      expect(l2[19]).toBe(checkDigit(l2.slice(13, 19)));
      expect(l2[27]).toBe(checkDigit(l2.slice(21, 27)));
    }
  });

  it('similarity data: similarity MATCH / NO_MATCH / NOT_POSSIBLE with a score, consistent with the decision', () => {
    const map: Record<string, string> = { PASSED: 'MATCH', REJECTED: 'NO_MATCH', WARNING: 'NOT_POSSIBLE' };
    for (const e of processed())
      for (const x of e.capabilities.similarity ?? []) {
        if (!x.data) continue;
        expect(x.data).toEqual({ similarity: map[x.decision.type], score: expect.any(Number) });
      }
  });

  it('imageChecks data: faceSearchFindings {status DONE/PENDING/ERROR, findings [uuid]}; repeated faces point to other executions', () => {
    const ids = new Set(all.map((e) => e.workflow.id));
    let withFindings = 0;
    for (const e of processed())
      for (const x of e.capabilities.imageChecks ?? []) {
        if (!x.data) continue;
        expect(['DONE', 'PENDING', 'ERROR']).toContain(x.data.faceSearchFindings.status);
        for (const f of x.data.faceSearchFindings.findings) {
          expect(f).toMatch(UUID);
          expect(f).not.toBe(e.workflow.id);
          expect(ids.has(f)).toBe(true);
          withFindings++;
        }
      }
    expect(withFindings).toBeGreaterThan(5);
  });

  it('lookups data: matched / faceMatched / matchedImages transactions with network, associatedNetwork, globalNetwork', () => {
    const e = processed().find(
      (x) => x.capabilities.lookups?.[0]?.data?.faceMatchedTransactions?.totalHighRiskTransactions > 0,
    )!;
    expect(e).toBeDefined();
    const f = e.capabilities.lookups[0].data.faceMatchedTransactions;
    expect(f.network.transactions.length).toBe(f.totalHighRiskTransactions);
    expect(f.globalNetwork).toMatchObject({ highRiskTransactions: expect.any(Number) });
  });

  it('repeated documents: some executions share document number, names and date of birth (blast radius)', () => {
    const keys = new Map<string, number>();
    for (const e of processed()) {
      const d = e.capabilities.extraction?.[0]?.data;
      if (!d?.documentNumber) continue;
      const k = [d.issuingCountry, d.type, d.documentNumber, d.firstName, d.lastName, d.dateOfBirth].join('|');
      keys.set(k, (keys.get(k) ?? 0) + 1);
    }
    expect([...keys.values()].filter((n) => n > 1).length).toBeGreaterThan(3);
  });

  it('an attack wave: a day with a burst of REJECTED DIGITAL_COPY / MANIPULATED_DOCUMENT', () => {
    const perDay = new Map<string, number>();
    for (const e of processed()) {
      const l = e.capabilities.imageChecks?.[0]?.decision.details.label;
      if (l === 'DIGITAL_COPY' || l === 'MANIPULATED_DOCUMENT')
        perDay.set(e.createdAt.slice(0, 10), (perDay.get(e.createdAt.slice(0, 10)) ?? 0) + 1);
    }
    const counts = [...perDay.values()].sort((a, b) => b - a);
    expect(counts[0]).toBeGreaterThan(5 * (counts[Math.floor(counts.length / 2)] ?? 1));
  });

  it('countries and document types are varied (~25 countries; PASSPORT, DRIVING_LICENSE, ID_CARD)', () => {
    const countries = new Set<string>(),
      types = new Set<string>();
    for (const e of processed()) {
      const d = e.capabilities.extraction?.[0]?.data;
      if (d?.issuingCountry) countries.add(d.issuingCountry);
      if (d?.type) types.add(d.type);
    }
    expect(countries.size).toBeGreaterThanOrEqual(20);
    for (const t of ['PASSPORT', 'DRIVING_LICENSE', 'ID_CARD']) expect(types.has(t)).toBe(true);
  });
});

describe('Steps (R7) and rule executions (R8) against the result', () => {
  it('steps reference exactly the capability entries of the result, and a step decision is the worst of its capabilities', async () => {
    const sample = processed()
      .filter((e) => !e.wipedOutAt)
      .slice(0, 40);
    for (const e of sample) {
      const steps = (
        await call(sim, 'GET', `/api/v1/accounts/${e.account.id}/workflow-executions/${e.workflow.id}/steps`, {
          token: access,
        })
      ).json.steps as Json[];
      const capIds = entries(e)
        .map(([, x]) => x.id)
        .sort();
      expect(steps.flatMap((s) => s.capabilityIds).sort()).toEqual(capIds);
      for (const s of steps) if (s.capabilities) expect(s.capabilities.map((c: Json) => c.id)).toEqual(s.capabilityIds);
    }
  });

  it('rule executions: matched rule scores sum to the ruleset score; the risk score follows it within the band', () => {
    for (const e of processed()) {
      if (!e.rules?.executions?.length) continue;
      const rs = e.rules.executions[0].rulesets[0];
      const sum = rs.rulesMatched.reduce((a: number, r: Json) => a + r.score, 0);
      expect(rs.score).toBe(sum);
      if (e.decision.type !== 'NOT_EXECUTED') {
        const band = { PASSED: [0, 30], WARNING: [31, 70], REJECTED: [71, 100] }[e.decision.type as string]!;
        expect(e.decision.risk.score).toBe(Math.min(band[1], Math.max(band[0], Math.min(100, sum))));
      }
    }
  });

  it('rules include named rules such as "Document expired", "Selfie age mismatch", "High-risk country", "Repeated face"', () => {
    const names = new Set(
      processed().flatMap(
        (e) => e.rules?.executions?.[0]?.rulesets.flatMap((r: Json) => r.rulesMatched.map((x: Json) => x.name)) ?? [],
      ),
    );
    for (const n of ['Document expired', 'Selfie age mismatch', 'High-risk country', 'Repeated face'])
      expect(names.has(n), n).toBe(true);
  });
});

describe('Results of API journeys come from what was uploaded', () => {
  it('a grayscale ID front is rejected as BLACK_WHITE and its dependants are PRECONDITION_NOT_FULFILLED', async () => {
    const done = await completeJourney(
      sim,
      access,
      {},
      { front: images.png(700, 450, true), back: images.back(), face: images.face() },
    );
    const u = done.result.capabilities.usability.find((x: Json) => x.credentials[0].category === 'ID');
    expect(u.decision).toEqual({ type: 'REJECTED', details: { label: 'BLACK_WHITE' } });
    expect(done.result.capabilities.imageChecks[0].decision).toEqual({
      type: 'NOT_EXECUTED',
      details: { label: 'PRECONDITION_NOT_FULFILLED' },
    });
    expect(done.result.capabilities.extraction[0].decision.type).toBe('NOT_EXECUTED');
    expect(done.result.decision.type).toBe('REJECTED');
  });

  it('the same selfie with a different document is flagged REPEATED_FACE and points to the earlier execution', async () => {
    const face = images.jpeg(480, 640);
    const first = await completeJourney(sim, access, {}, { front: images.front(), back: images.back(), face });
    const second = await completeJourney(sim, access, {}, { front: images.png(800, 500), back: images.back(), face });
    const ic = second.result.capabilities.imageChecks[0];
    expect(ic.decision).toEqual({ type: 'WARNING', details: { label: 'REPEATED_FACE' } });
    expect(ic.data.faceSearchFindings.findings).toContain(first.executionId);
  });

  it('overrideSettings simulator.outcome forces a decision (for demos and tests)', async () => {
    const done = await completeJourney(sim, access, {
      overrideSettings: { 'simulator.outcome': 'REJECTED', 'simulator.label': 'MANIPULATED_DOCUMENT' },
    });
    expect(done.result.decision.type).toBe('REJECTED');
    expect(done.result.capabilities.imageChecks[0].decision.details.label).toBe('MANIPULATED_DOCUMENT');
    const names = done.result.rules.executions[0].rulesets[0].rulesMatched.map((r: Json) => r.name);
    expect(names).toContain('Manipulated document');
  });

  it('custom rulesets requested in workflowDefinition appear in the rule executions', async () => {
    const done = await completeJourney(sim, access, {
      workflowDefinition: {
        key: '10013',
        credentials: [{ category: 'ID' }, { category: 'SELFIE' }],
        capabilities: { ruleset: { ids: ['my-rules'] }, workflowDecision: { riskScoreRulesetId: 'risk-1' } },
      },
    });
    expect(done.result.rules.executions[0].rulesets.map((r: Json) => r.id)).toEqual(
      expect.arrayContaining(['risk-1', 'my-rules']),
    );
  });
});
