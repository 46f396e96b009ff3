import { describe, expect, it } from 'vitest';
import { comparisonSummary } from '@/lib/executions/comparison';

describe('the comparison of extracted and prepared data', () => {
  it('says nothing of differences when nothing was extracted', () => {
    const s = comparisonSummary([
      { extracted: undefined, supplied: 'Erika', mismatch: false },
      { extracted: undefined, supplied: '1964-08-12', mismatch: false },
    ]);
    expect(s).toMatchObject({ extracted: false, supplied: true, compared: 0 });
    expect(s.description).toBe('Nothing was extracted from a document: the prepared data only, nothing to compare.');
  });

  it('counts only the fields present on both sides', () => {
    const s = comparisonSummary([
      { extracted: 'MUSTERMANN', supplied: 'Mustermann', mismatch: false },
      { extracted: '1964-08-12', supplied: '1964-08-21', mismatch: true },
      { extracted: 'D', supplied: undefined, mismatch: false },
    ]);
    expect(s.description).toBe('1 of the 2 fields on both sides differ between the document and the prepared data.');
    expect(comparisonSummary([{ extracted: 'ERIKA', supplied: 'Erika', mismatch: false }]).description).toBe(
      'No differences in the 1 field present in both the document and the prepared data.',
    );
  });

  it('says when there is no prepared data, or no field in common', () => {
    expect(comparisonSummary([{ extracted: 'ERIKA', supplied: undefined, mismatch: false }]).description).toBe(
      'The customer supplied no prepared data: extracted data only.',
    );
    expect(
      comparisonSummary([
        { extracted: 'ERIKA', supplied: undefined, mismatch: false },
        { extracted: undefined, supplied: 'Berlin', mismatch: false },
      ]).description,
    ).toBe('The document and the prepared data share no field: nothing to compare.');
  });
});
