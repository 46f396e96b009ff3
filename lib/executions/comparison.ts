/** One field of the extracted data beside the customer's prepared data (lib/executions/content.ts). */
export interface ComparedField {
  extracted: unknown;
  supplied: unknown;
  mismatch: boolean;
}

/**
 * What the comparison of extracted and prepared data may say: a comparison only where both sides
 * have the field, so "no differences" is never said of a document nothing was extracted from.
 */
export function comparisonSummary(rows: ComparedField[]) {
  const supplied = rows.some((r) => r.supplied !== undefined);
  const extracted = rows.some((r) => r.extracted !== undefined);
  const compared = rows.filter((r) => r.extracted !== undefined && r.supplied !== undefined).length;
  const mismatches = rows.filter((r) => r.mismatch).length;
  const fields = (n: number) => `${n} field${n === 1 ? '' : 's'}`;
  const description = !extracted
    ? 'Nothing was extracted from a document: the prepared data only, nothing to compare.'
    : !supplied
      ? 'The customer supplied no prepared data: extracted data only.'
      : !compared
        ? 'The document and the prepared data share no field: nothing to compare.'
        : mismatches
          ? `${mismatches} of the ${fields(compared)} on both sides differ between the document and the prepared data.`
          : `No differences in the ${fields(compared)} present in both the document and the prepared data.`;
  return { supplied, extracted, compared, mismatches, description };
}
