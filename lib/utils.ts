import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}

/** A form's empty field is no value: zod then applies the field's default or says it is required. */
export const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/**
 * A calendar day as typed in every date field of the console: YYYY-MM-DD, and a day that exists
 * (2026-02-30 is refused, not moved into March as `Date` would). Browsers show their own date
 * inputs in the machine's locale (mm/dd/yyyy and the like), so the console's fields are text with
 * this one format, said next to each of them.
 */
export const DAY_FORMAT = 'YYYY-MM-DD';
export function isIsoDay(raw: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw)) return false;
  const d = new Date(`${raw}T00:00:00.000Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(raw);
}

/** The sentence for a day that is not one, naming what was typed and the format with an example. */
export const dayFormatError = (raw: string) => `“${raw}” is not a day: write it as ${DAY_FORMAT}, e.g. 2026-03-31.`;
