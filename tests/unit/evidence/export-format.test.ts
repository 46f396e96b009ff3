import { describe, expect, it } from 'vitest';
import { CsvReader, csvCell, neutralise, restore } from '@/lib/evidence/export-format';

describe('the audit export CSV', () => {
  it('neutralises formula triggers at the start and after any separator, and restores the exact text', () => {
    expect(neutralise('=HYPERLINK("x")')).toBe(`'=HYPERLINK("x")`);
    expect(neutralise('a;=1+1')).toBe(`a;'=1+1`);
    expect(neutralise('{"b": [1, -2]}')).toBe(`{"b": [1, '-2]}`);
    expect(neutralise('\tx')).toBe(`'\tx`);
    // An apostrophe where one would be inserted is doubled, so restoring is exact.
    expect(neutralise("'=x")).toBe("''=x");
    const alphabet = ['=', '+', '-', '@', "'", '\t', '\r', '\n', ' ', ',', ';', '|', 'a', 'é', '"'];
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 20_000; i++) {
      const s = Array.from({ length: Math.floor(rnd() * 8) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join(
        '',
      );
      expect(restore(neutralise(s))).toBe(s);
      // No cell starts with a trigger once neutralised, and no trigger follows a separator.
      expect(neutralise(s)).not.toMatch(/^\s*[=+\-@]|[,;|\t\r\n]\s*[=+\-@]/);
    }
  });

  it('reads back what it writes: quotes, line breaks inside cells, NULL apart from the empty string', () => {
    const values = [null, '', 'plain', 'a,b', 'say "hi"', 'two\r\nlines', '=cmd', "'quoted"];
    const line = `${values.map(csvCell).join(',')}\r\n`;
    const records: (string | null)[][] = [];
    const r = new CsvReader((cells) => records.push(cells));
    // Fed in awkward pieces, a CR LF split across two of them included.
    for (const piece of [line.slice(0, 5), line.slice(5, 31), line.slice(31, -1), line.slice(-1), line]) r.push(piece);
    r.end();
    expect(records).toEqual([values, values]);
  });
});
