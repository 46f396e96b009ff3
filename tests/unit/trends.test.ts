import { describe, expect, it } from 'vitest';
import { listHref } from '@/lib/trends/list-links';
import {
  bucketLabel,
  bucketsOf,
  bucketTitle,
  previousPeriod,
  resolveTrendsFilters,
  trendsHref,
  trendsListHref,
} from '@/lib/trends/shared';
import { getTableName, isTable } from 'drizzle-orm';
import * as trendSchema from '@/lib/db/schema/trends';
import { labelsOfTags, ROLLUP_TABLES } from '@/lib/sync/rollup';

describe('listHref: the one link to the executions list', () => {
  it('writes the parameters in a fixed order, repeats decision, leaves empty values out', () => {
    expect(
      listHref({
        rule: 'r1',
        decision: ['PASSED', 'WARNING'],
        createdFrom: '2031-03-01',
        createdTo: '2031-03-02',
        country: '',
        riskMin: -1,
        riskMax: 0,
      }),
    ).toBe(
      '/executions?decision=PASSED&decision=WARNING&riskMin=-1&riskMax=0&createdFrom=2031-03-01&createdTo=2031-03-02&rule=r1',
    );
    expect(listHref({})).toBe('/executions');
    expect(listHref({ capability: 'usability', capLabel: 'A&B=C' })).toBe(
      '/executions?cap=usability%3Alabel%3AA%26B%3DC',
    );
    expect(listHref({ capability: 'liveness', capDecision: 'REJECTED', feedbackReason: 'PHISHING' })).toBe(
      '/executions?cap=liveness%3AREJECTED&feedbackReason=PHISHING',
    );
  });

  it('carries the trends filters and the period of a bar', () => {
    expect(
      trendsListHref(
        { definitionKey: 'k', country: 'DEU' },
        { from: '2031-03-03', to: '2031-03-09' },
        { decision: 'REJECTED' },
      ),
    ).toBe('/executions?decision=REJECTED&createdFrom=2031-03-03&createdTo=2031-03-09&definition=k&country=DEU');
  });
});

describe('trends URL state and periods', () => {
  it('falls back to defaults for bad values, swaps and caps custom ranges', () => {
    expect(resolveTrendsFilters({ range: 'bogus', granularity: 'year', country: ' ' }, '2031-03-16')).toEqual({
      range: '30',
      from: '2031-02-15',
      to: '2031-03-16',
      granularity: 'day',
      definitionKey: undefined,
      country: undefined,
      docType: undefined,
    });
    expect(resolveTrendsFilters({ range: 'custom', from: '2031-03-10', to: '2031-03-01' }, '2031-06-01')).toMatchObject(
      { from: '2031-03-01', to: '2031-03-10' },
    );
    expect(resolveTrendsFilters({ range: 'custom', from: '2001-01-01', to: '2031-01-01' }, '2031-06-01').from).toBe(
      '2029-01-01',
    );
    expect(resolveTrendsFilters({ range: '365' }, '2031-06-01')).toMatchObject({
      from: '2030-06-02',
      granularity: 'month',
    });
    expect(trendsHref({ range: '90', granularity: 'week', country: 'FRA', from: '2031-01-01' })).toBe(
      '/trends?range=90&granularity=week&country=FRA',
    );
  });

  it('cuts ISO weeks and months, clipped to the range', () => {
    // 2031-03-05 is a Wednesday.
    expect(bucketsOf({ from: '2031-03-05', to: '2031-03-17', granularity: 'week' })).toEqual([
      { key: '2031-03-03', from: '2031-03-05', to: '2031-03-09' },
      { key: '2031-03-10', from: '2031-03-10', to: '2031-03-16' },
      { key: '2031-03-17', from: '2031-03-17', to: '2031-03-17' },
    ]);
    expect(
      bucketsOf({ from: '2032-01-31', to: '2032-03-01', granularity: 'month' }).map((b) => [b.from, b.to]),
    ).toEqual([
      ['2032-01-31', '2032-01-31'],
      ['2032-02-01', '2032-02-29'],
      ['2032-03-01', '2032-03-01'],
    ]);
    expect(previousPeriod({ from: '2031-03-03', to: '2031-03-16' })).toEqual({ from: '2031-02-17', to: '2031-03-02' });
  });
});

describe('labelsOfTags: REJECTED and WARNING labels from capability tags', () => {
  it('uses the documented decision of a known label, the worst decision for an unknown one, and skips passing ones', () => {
    const tags = [
      'usability:REJECTED',
      'usability:label:BLURRED',
      'usability:PASSED',
      'usability:label:OK',
      'similarity:WARNING',
      'similarity:label:NOT_POSSIBLE',
      'imageChecks:REJECTED',
      'imageChecks:label:SOMETHING_NEW',
      'dataChecks:NOT_EXECUTED',
      'dataChecks:label:PRECONDITION_NOT_FULFILLED',
      'extraction:PASSED',
      'extraction:label:ALSO_NEW',
    ];
    expect(labelsOfTags(tags)).toEqual([
      { capability: 'usability', decisionType: 'REJECTED', label: 'BLURRED' },
      { capability: 'similarity', decisionType: 'WARNING', label: 'NOT_POSSIBLE' },
      { capability: 'imageChecks', decisionType: 'REJECTED', label: 'SOMETHING_NEW' },
    ]);
  });
});

describe('ROLLUP_TABLES', () => {
  it('names every table of the rollup schema, so resets and rebuilds cannot miss one', () => {
    const tables = Object.values(trendSchema)
      .filter(isTable)
      .map((t) => getTableName(t))
      .sort();
    expect([...ROLLUP_TABLES].sort()).toEqual(tables);
  });
});

describe('the period still running', () => {
  it('is marked partial and labelled as so far, by day, week and month', () => {
    const now = new Date('2031-03-12T09:30:00Z');
    const days = bucketsOf({ from: '2031-03-10', to: '2031-03-12', granularity: 'day' }, now);
    expect(days.map((b) => b.partial ?? false)).toEqual([false, false, true]);
    expect(bucketLabel(days[2], 'day')).toBe('12 Mar (so far)');
    expect(bucketTitle(days[2], 'day')).toBe('2031-03-12 (partial: so far)');
    expect(bucketLabel(days[1], 'day')).toBe('11 Mar');
    const weeks = bucketsOf({ from: '2031-03-01', to: '2031-03-12', granularity: 'week' }, now);
    expect(weeks.at(-1)).toMatchObject({ key: '2031-03-10', partial: true });
    expect(weeks.filter((b) => b.partial)).toHaveLength(1);
    const past = bucketsOf({ from: '2031-01-01', to: '2031-02-28', granularity: 'month' }, now);
    expect(past.some((b) => b.partial)).toBe(false);
  });
});
