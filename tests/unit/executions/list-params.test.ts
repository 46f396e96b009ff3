import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  clearedFilters,
  DEFAULT_LIST_PARAMS,
  FILTER_KEYS,
  filterChips,
  LIST_PARAMS,
  listHref,
  parseListParams,
  parseQueueDefinition,
  queueDefinitionOf,
  toSearchParams,
  type ListParamKey,
  type ListParams,
} from '@/lib/executions/list-params';

/** One acceptable, non-default value for every parameter of the table. */
const SAMPLE: { [K in ListParamKey]-?: NonNullable<ListParams[K]> } = {
  decision: ['REJECTED', 'WARNING'],
  status: ['PROCESSED'],
  riskMin: 10,
  riskMax: 40,
  createdFrom: '2026-01-01',
  createdTo: '2026-01-31',
  completedFrom: '2026-02-01',
  completedTo: '2026-02-28',
  definition: '10013',
  cap: ['liveness:REJECTED', 'imageChecks:label:DIGITAL_COPY'],
  country: 'DEU',
  docType: 'PASSPORT',
  feedback: ['FRAUD', 'pending'],
  criteria: 'onboarding EU',
  feedbackReason: 'SYNTHETIC_IDENTITY',
  rule: 'R-REPEATED-FACE',
  account: '0e2e0000-0000-4000-a000-000000000001',
  caseState: ['open', 'in_review'],
  queue: ['0e2e0000-0000-4000-a000-000000000006'],
  assignee: 'me',
  due: 'overdue',
  outcome: ['decline'],
  resolver: '0e2e0000-0000-4000-a000-000000000007',
  resolvedWithin: '7d',
  escalatedBy: '0e2e0000-0000-4000-a000-000000000008',
  against: 'declined_passed',
  q: '0e2e0000-0000-4000-a000-000000000002',
  st: 'tokentoken12',
  sort: 'risk',
  dir: 'asc',
  size: 100,
  after: '2026-01-02T00:00:00.000Z~0e2e0000-0000-4000-a000-000000000003',
  before: '2026-01-03T00:00:00.000Z~0e2e0000-0000-4000-a000-000000000004',
  at: '2026-01-04T00:00:00.000Z~0e2e0000-0000-4000-a000-000000000005',
};

describe('the list URL state, defined once', () => {
  it('round-trips every parameter of the table through the URL', () => {
    expect(Object.keys(SAMPLE).sort()).toEqual(Object.keys(LIST_PARAMS).sort());
    const url = toSearchParams(SAMPLE);
    expect(parseListParams(url)).toEqual(SAMPLE);
    for (const k of Object.keys(LIST_PARAMS) as ListParamKey[]) {
      const one = { ...DEFAULT_LIST_PARAMS, [k]: SAMPLE[k] } as ListParams;
      expect(parseListParams(toSearchParams(one)), k).toEqual(one);
    }
    expect(listHref(DEFAULT_LIST_PARAMS)).toBe('/executions');
  });

  it('gives every filter a chip whose removal takes exactly that value away', () => {
    const p = parseListParams(toSearchParams(SAMPLE));
    const chips = filterChips(p);
    for (const k of FILTER_KEYS) {
      // A range (risk, created, completed) is one chip for both of its ends.
      const values = ([] as unknown[]).concat(SAMPLE[k]);
      const mine = chips.filter((c) => k in c.remove);
      expect(mine.length, `chips of ${k}`).toBe(values.length);
      for (const c of mine) expect(c.label.length).toBeGreaterThan(0);
    }
    expect(chips.find((c) => 'riskMax' in c.remove)!.label).toBe('Risk 10–40');
    // Removing the rule's chip removes the rule and nothing else.
    const rule = chips.find((c) => 'rule' in c.remove)!;
    expect(rule.label).toBe('Matched rule: R-REPEATED-FACE');
    const after = parseListParams(toSearchParams({ ...p, ...rule.remove }));
    expect(after.rule).toBeUndefined();
    expect(activeFilterCount(after)).toBe(activeFilterCount(p) - 1);
  });

  it('counts every filter and "Clear all filters" clears every filter counted, keeping the search and the sort', () => {
    const p = parseListParams(toSearchParams(SAMPLE));
    // Three ranges count once each.
    expect(activeFilterCount(p)).toBe(FILTER_KEYS.length - 3);
    const cleared = parseListParams(toSearchParams({ ...p, ...clearedFilters() }));
    expect(activeFilterCount(cleared)).toBe(0);
    expect(filterChips(cleared).map((c) => c.label)).toEqual(['Id 0e2e0000…']);
    expect(cleared).toMatchObject({ st: SAMPLE.st, q: SAMPLE.q, sort: 'risk', dir: 'asc', size: 100 });
  });

  it('reads a mangled URL forgivingly: a bad value is no filter, never an error', () => {
    const p = parseListParams({
      riskMin: '80',
      riskMax: '20',
      createdFrom: '2026-02-30',
      size: '7',
      sort: 'name',
      decision: ['rejected', 'x<y', 'rejected'],
      country: 'Atlantis',
      cap: 'bad tag',
    });
    expect(p).toEqual({ ...DEFAULT_LIST_PARAMS, riskMin: 20, riskMax: 80, decision: ['REJECTED'] });
  });

  it('saves a queue from the list: its execution filters only, never case work, search, sort or position', () => {
    const def = queueDefinitionOf(SAMPLE);
    for (const k of [
      'caseState',
      'queue',
      'assignee',
      'due',
      'outcome',
      'resolver',
      'q',
      'st',
      'sort',
      'dir',
      'size',
      'after',
      'before',
      'at',
    ])
      expect(new URLSearchParams(def).has(k), k).toBe(false);
    const p = parseQueueDefinition(def);
    expect(p).toMatchObject({ decision: SAMPLE.decision, riskMin: 10, riskMax: 40, rule: SAMPLE.rule, caseState: [] });
    // Case-work filters smuggled into a stored definition are ignored.
    expect(parseQueueDefinition('decision=WARNING&assignee=me&caseState=open')).toEqual({
      ...DEFAULT_LIST_PARAMS,
      decision: ['WARNING'],
    });
    expect(filterChips(parseListParams({ queue: SAMPLE.queue }), { [SAMPLE.queue[0]]: 'Warnings' })[0].label).toBe(
      'Queue: Warnings',
    );
  });
});
