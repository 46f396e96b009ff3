import { describe, expect, it } from 'vitest';
import { hiddenColumnsOf, DEFAULT_HIDDEN, CUSTOMISED } from '@/lib/executions/columns';
import {
  activeFilterCount,
  DEFAULT_LIST_PARAMS,
  detailHref,
  listHref,
  toSearchParams,
} from '@/lib/executions/list-params';
import { formatApproximate } from '@/lib/format';
import { explainLabel, riskBandOf } from '@/lib/executions/glossary';
import {
  blockedBy,
  capabilityGroups,
  matchedRules,
  ruleExecutions,
  rulesForCapability,
  stepViews,
} from '@/lib/executions/result';
import { FX, unusualExecutions } from '../../support/fixtures/review';

const byId = (id: string) => unusualExecutions().find((x) => (x.result.workflow as { id: string }).id === id)!;

describe('reading a result for the why pane', () => {
  it('orders checks by dependency, keeps unknown ones last, explains labels', () => {
    const groups = capabilityGroups(byId(FX.every).result);
    expect(groups.slice(0, 5).map((g) => g.name)).toEqual([
      'usability',
      'imageChecks',
      'classification',
      'extraction',
      'dataChecks',
    ]);
    expect(groups).toHaveLength(34);
    const image = groups.find((g) => g.name === 'imageChecks')!;
    expect(image.worst).toBe('REJECTED');
    expect(image.entries[0].explanation).toMatch(/photographed from a screen/);
    const unknown = capabilityGroups(byId(FX.unknown).result);
    expect(unknown.map((g) => g.name).slice(-2)).toEqual(['quantumCheck', 'voiceVerification']);
    const voice = unknown.find((g) => g.name === 'voiceVerification')!;
    expect(voice).toMatchObject({ known: false, worst: 'HOLD', title: 'Voice Verification' });
    expect(voice.entries[0].explanation).toBeNull();
    expect(unknown.find((g) => g.name === 'usability')!.entries[0].label).toBe('OK_VERIFIED_EXTENDED');
  });

  it('ties rules to checks and says why a check did not run', () => {
    const x = byId(FX.every);
    const groups = capabilityGroups(x.result);
    const rules = matchedRules(ruleExecutions(x.rules!.executions));
    expect(rules[0]).toMatchObject({ id: 'R-DIGITAL-COPY', score: 90 });
    expect(
      rulesForCapability(
        groups.find((g) => g.name === 'imageChecks')!,
        rules,
        groups,
      ).map((r) => r.id),
    ).toContain('R-DIGITAL-COPY');
    expect(
      rulesForCapability(
        groups.find((g) => g.name === 'watchlistScreening')!,
        rules,
        groups,
      ).map((r) => r.id),
    ).toEqual(['R-WATCHLIST']);
    const ne = capabilityGroups(byId(FX.notExecuted).result);
    expect(
      blockedBy(
        ne.find((g) => g.name === 'extraction')!,
        ne,
      ).map((g) => g.name),
    ).toEqual(['usability']);
  });

  it('shows a rule only under the check it belongs to, never under a check that passed', () => {
    // A result as the simulator writes it (lib/simulator/catalog.ts): eKYC rejected, liveness
    // warned of the selfie's age, face similarity and the global identity check passed; the
    // risk ruleset matched the two rules those results trigger.
    const entry = (type: string, label: string) => ({
      id: `${type}-${label}`,
      credentials: [{ id: 'c1', category: 'SELFIE' }],
      decision: { type, details: { label } },
    });
    const groups = capabilityGroups({
      capabilities: {
        similarity: [entry('PASSED', 'MATCH')],
        liveness: [entry('WARNING', 'AGE_DIFFERENCE')],
        ekycVerification: [entry('REJECTED', 'NOT_VERIFIED')],
        globalIdentityCheck: [entry('PASSED', 'VERIFIED')],
        ekycGlobalVerification: [entry('PASSED', 'VERIFIED')],
      },
    });
    const rules = matchedRules(
      ruleExecutions([
        {
          id: 'x',
          rulesets: [
            {
              id: 'risk',
              name: 'Risk',
              version: 1,
              score: 123,
              rulesMatched: [
                { id: 'R-EKYC-DENY', name: 'Identity data not verified', version: 2, score: 78 },
                { id: 'R-AGE-MISMATCH', name: 'Selfie age mismatch', version: 2, score: 45 },
              ],
              rulesNotMatched: [],
            },
          ],
        },
      ]),
    );
    const under = (name: string) =>
      rulesForCapability(
        groups.find((g) => g.name === name)!,
        rules,
        groups,
      ).map((r) => r.id);
    expect(under('ekycVerification')).toEqual(['R-EKYC-DENY']);
    expect(under('globalIdentityCheck')).toEqual([]);
    expect(under('ekycGlobalVerification')).toEqual([]);
    expect(under('liveness')).toEqual(['R-AGE-MISMATCH']);
    expect(under('similarity')).toEqual([]);
  });

  it('survives missing parts and odd steps', () => {
    expect(capabilityGroups(byId(FX.minimal).result)).toEqual([]);
    expect(ruleExecutions([null, 'x', { rulesets: 'nope' }])).toEqual([
      { id: null, startedAt: null, completedAt: null, rulesets: [] },
    ]);
    const u = byId(FX.unknown);
    const steps = stepViews(u.steps!.steps, capabilityGroups(u.result));
    expect(steps[0].capabilities.map((c) => c.capability)).toEqual(['voiceVerification', null]);
  });

  it('has plain words for known labels and bands for scores', () => {
    expect(explainLabel('NO_MATCH', 'similarity')).toMatch(/different people/);
    expect(explainLabel('SOMETHING_NEW')).toBeNull();
    expect([riskBandOf(-1), riskBandOf(0), riskBandOf(30), riskBandOf(31), riskBandOf(71), riskBandOf(null)]).toEqual([
      'NOT_EXECUTED',
      'PASSED',
      'PASSED',
      'WARNING',
      'REJECTED',
      null,
    ]);
  });
});

describe('list URL and preferences', () => {
  it('writes short URLs and keeps the list state in them', () => {
    expect(listHref(DEFAULT_LIST_PARAMS)).toBe('/executions');
    const p = {
      ...DEFAULT_LIST_PARAMS,
      decision: ['REJECTED', 'WARNING'],
      riskMin: 71,
      sort: 'risk' as const,
      after: 'x~y',
      st: 'tok',
    };
    expect(toSearchParams(p).toString()).toBe(
      'decision=REJECTED&decision=WARNING&riskMin=71&st=tok&sort=risk&after=x%7Ey',
    );
    expect(detailHref('abc', p)).toBe('/executions/abc?decision=REJECTED&decision=WARNING&riskMin=71&st=tok&sort=risk');
    expect(activeFilterCount(p)).toBe(2);
  });

  it('hides default columns until the user chooses, then remembers "show all" too', () => {
    expect(hiddenColumnsOf([])).toEqual(DEFAULT_HIDDEN);
    expect(hiddenColumnsOf([CUSTOMISED])).toEqual([]);
    expect(hiddenColumnsOf([CUSTOMISED, 'name', 'createdAt', 'bogus'])).toEqual(['name']);
  });

  it('rounds estimates to two significant digits', () => {
    expect(formatApproximate(123_456)).toBe('about 120,000');
    expect(formatApproximate(999_965)).toBe('about 1,000,000');
    expect(formatApproximate(42)).toBe('about 42');
  });
});
