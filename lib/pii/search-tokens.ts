/**
 * Search over personal data matches whole values only. A substring search let anyone recover a
 * masked document number one character at a time (18 searches from `••••6513`) and confirm which
 * masked row is whom; whole-value matching answers only "is there someone with exactly this
 * name or number", which the person searching must already know.
 *
 * Values are normalised the same way on both sides: Unicode NFD without combining marks, lower
 * case, without spaces and the punctuation people type inside names and numbers ("José" =
 * "jose", "X12-345 67" = "x1234567"). Migration 0009 does the same in SQL for rows cached
 * before it: keep the two in step.
 */
const MARKS = /[\u0300-\u036f]/g;
const SEPARATORS = /[\s\-\u2010\u2011'\u2019.,/_]/g;

export function normaliseToken(s: string): string {
  return s.normalize('NFD').replace(MARKS, '').toLowerCase().replace(SEPARATORS, '');
}

/** The tokens an execution can be found by: each name word, each hyphenated part, the document number. */
export function personalSearchTokens(p: {
  firstName?: string | null;
  lastName?: string | null;
  documentNumber?: string | null;
}): string[] {
  const out = new Set<string>();
  for (const name of [p.firstName, p.lastName]) {
    if (!name) continue;
    for (const word of name.split(/\s+/)) {
      out.add(normaliseToken(word));
      for (const part of word.split(/[-\u2010\u2011]/)) out.add(normaliseToken(part));
    }
  }
  if (p.documentNumber) out.add(normaliseToken(p.documentNumber));
  out.delete('');
  return [...out].sort();
}

/** The tokens of a typed search: every one must match. Null when nothing searchable is left. */
export function searchTermTokens(term: string): string[] | null {
  const words = term
    .split(/\s+/)
    .map(normaliseToken)
    .filter((w) => w.length >= 2)
    .slice(0, 8);
  return words.length ? [...new Set(words)] : null;
}
