'use client';
import * as React from 'react';
import { FieldError, Input, Label } from '@/components/ui/input';
import { countryLabel, resolveCountry, suggestCountries } from '@/lib/countries';

/**
 * The issuing-country filter: takes a name ("Germany"), a two- or three-letter code ("de", "DEU")
 * and suggests countries as one types, those present in the data first. Says which country it
 * will filter by, or that it knows none by that name, before the filter is applied.
 */
export function CountryField({ present, initial }: { present: readonly string[]; initial?: string }) {
  const [value, setValue] = React.useState(initial ? countryLabel(initial) : '');
  const code = value.trim() ? resolveCountry(value) : undefined;
  const suggestions = suggestCountries(value, present);
  const unknown = value.trim() !== '' && !code;
  return (
    <>
      <Label htmlFor="f-country">Issuing country</Label>
      <Input
        id="f-country"
        name="country"
        list="f-country-list"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        placeholder="Name or code, e.g. Germany or DEU"
        autoComplete="off"
        aria-invalid={unknown || undefined}
        aria-describedby="f-country-hint"
      />
      <datalist id="f-country-list">
        {suggestions.map((c) => (
          <option key={c.alpha3} value={`${c.name} (${c.alpha3})`} />
        ))}
      </datalist>
      {unknown ? (
        <FieldError id="f-country-hint" messages={[`No country called “${value.trim()}”: choose a suggestion.`]} />
      ) : (
        <p id="f-country-hint" className="text-xs text-muted-fg">
          {code ? `Documents issued by ${countryLabel(code)}.` : 'Any country.'}
        </p>
      )}
    </>
  );
}

/** The country a filter form holds, as the service's code; `null` when it names no country. */
export function countryOfForm(fd: FormData): string | undefined | null {
  const raw = String(fd.get('country') ?? '').trim();
  if (!raw) return undefined;
  return resolveCountry(raw) ?? null;
}
