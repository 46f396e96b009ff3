import { describe, expect, it } from 'vitest';
import { textRuns } from '@/lib/evidence/report/fonts';

/** The case report's text runs: which embedded face draws what, right-to-left stretches, and what no face has. */
describe('report text runs', () => {
  it('give each script the first face that has it, and keep spaces with their run', () => {
    expect(textRuns('Şahin ≠ Жанна Ωmega 王小明 김민준', 'regular')).toEqual([
      { face: 'sans', text: 'Şahin ≠ Жанна Ωmega ', rtl: false },
      { face: 'han', text: '王小明 ', rtl: false },
      { face: 'hangul', text: '김민준', rtl: false },
    ]);
    // DejaVu's oblique has no Arabic: the upright face draws it.
    expect(textRuns('note محمد', 'italic').map((r) => r.face)).toEqual(['sans-oblique', 'sans']);
  });

  it('make a right-to-left stretch one run, its numbers reversed to survive the run’s reversal', () => {
    expect(textRuns('Name: محمد عبد الله, x', 'regular')).toEqual([
      { face: 'sans', text: 'Name: ', rtl: false },
      { face: 'sans', text: 'محمد عبد الله', rtl: true },
      { face: 'sans', text: ', x', rtl: false },
    ]);
    expect(textRuns('شارع 12', 'regular')).toEqual([{ face: 'sans', text: 'شارع 21', rtl: true }]);
  });

  it('mark what no face can print, never a question mark', () => {
    const runs = textRuns('A\u0007B \u{13000}', 'bold');
    expect(runs.map((r) => r.text).join('')).toBe('A[unprintable: U+0007]B [unprintable: U+13000]');
    expect(runs.every((r) => r.face === 'sans-bold')).toBe(true);
  });
});
