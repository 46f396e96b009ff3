import { describe, expect, it } from 'vitest';
import { countryLabel, resolveCountry, suggestCountries } from '@/lib/countries';
import { filterChips, parseListParams } from '@/lib/executions/list-params';

describe('issuing countries as people type them', () => {
  it('takes names, alpha-2 and alpha-3 codes in any case, and a picked suggestion', () => {
    expect(resolveCountry('Germany')).toBe('DEU');
    expect(resolveCountry('germany ')).toBe('DEU');
    expect(resolveCountry('Federal Republic of Germany')).toBe('DEU');
    expect(resolveCountry('de')).toBe('DEU');
    expect(resolveCountry('deu')).toBe('DEU');
    expect(resolveCountry('Germany (DEU)')).toBe('DEU');
    expect(resolveCountry('aland islands')).toBe('ALA');
    expect(resolveCountry('United States')).toBe('USA');
  });

  it('keeps an unknown three-letter code as typed and refuses a name it does not know', () => {
    expect(resolveCountry('utO')).toBe('UTO');
    expect(resolveCountry('Germanyy')).toBeUndefined();
    expect(resolveCountry('GER')).toBe('GER');
    expect(resolveCountry('  ')).toBeUndefined();
  });

  it('suggests by the start of a name, those present in the data first', () => {
    expect(suggestCountries('germ').map((c) => c.alpha3)).toEqual(['DEU']);
    const u = suggestCountries('united', ['GBR']).map((c) => c.alpha3);
    expect(u[0]).toBe('GBR');
    expect(u).toContain('USA');
    expect(suggestCountries('', ['FRA', 'DEU']).map((c) => c.alpha3)).toEqual(['FRA', 'DEU']);
  });

  it('reads a name in the list URL as the code and shows the name on the chip', () => {
    const p = parseListParams({ country: 'Germany' });
    expect(p.country).toBe('DEU');
    expect(filterChips(p).map((c) => c.label)).toContain('Country: Germany (DEU)');
    expect(parseListParams({ country: 'Nowhere land' }).country).toBeUndefined();
    expect(countryLabel('UTO')).toBe('UTO');
  });
});
