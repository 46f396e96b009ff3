/** Capped exponential backoff with ±20 % jitter; a longer Retry-After from the other side wins. */
export function retryDelayMs(
  attempt: number,
  base: number,
  max: number,
  retryAfterMs?: number,
  random = Math.random,
): number {
  const exp = Math.min(max, base * 2 ** Math.max(0, attempt - 1));
  const jittered = Math.round(exp * (0.8 + 0.4 * random()));
  return Math.min(max, Math.max(jittered, retryAfterMs ?? 0));
}
