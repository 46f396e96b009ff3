/**
 * The error `fn` throws, checked to be a `type`: a test that expects one kind of failure gets it
 * back to inspect, and fails on any other error or on none.
 */
export function thrownBy<E extends Error>(type: abstract new (...args: never[]) => E, fn: () => unknown): E {
  try {
    fn();
  } catch (err) {
    if (err instanceof type) return err;
    throw err;
  }
  throw new Error(`expected ${type.name} to be thrown`);
}
