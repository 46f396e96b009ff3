/** Browser-safe and tiny: the list's risk column imports it. */
/** Default risk bands (service-facts); the service lets customers change them. */
export const RISK_BANDS = [
  { type: 'PASSED', from: 0, to: 30 },
  { type: 'WARNING', from: 31, to: 70 },
  { type: 'REJECTED', from: 71, to: 100 },
] as const;

export function riskBandOf(score: number | null | undefined): string | null {
  if (score === null || score === undefined) return null;
  if (score < 0) return 'NOT_EXECUTED';
  return RISK_BANDS.find((b) => score >= b.from && score <= b.to)?.type ?? null;
}
