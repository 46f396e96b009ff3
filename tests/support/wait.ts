/**
 * The one polling helper of the tests: calls `fn` until `ok` holds for its value, or fails after
 * `timeoutMs` with the last value it saw. For things that happen later by design (a callback,
 * a job, a delivery), never as a stand-in for a fixed sleep.
 */
export async function until<T>(
  fn: () => Promise<T> | T,
  ok: (v: T) => boolean,
  timeoutMs = 20_000,
  what = 'condition',
  stepMs = 100,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() - started > timeoutMs)
      throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/** `until` for a value that is present once it is ready (not undefined, null or false). */
export function waitFor<T>(
  fn: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 5000,
  stepMs = 20,
): Promise<T> {
  return until(
    fn,
    (v) => v !== undefined && v !== null && (v as unknown) !== false,
    timeoutMs,
    'waitFor',
    stepMs,
  ) as Promise<T>;
}
