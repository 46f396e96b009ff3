/**
 * What a stopping process closes, registered by whoever opened it (the database pool, the job
 * queue), and whether it is draining. Kept on globalThis and free of `server-only`: the console
 * server (scripts/console-server.ts, plain Node) and the code Next bundled for the routes are two
 * module graphs in one process, and must see the same state.
 */
type State = { hooks: Map<string, () => Promise<void>>; draining: boolean };
const state = ((globalThis as unknown as { __verdictProcess?: State }).__verdictProcess ??= {
  hooks: new Map(),
  draining: false,
});

/** Registers (or with the same name, replaces) what to close when the process stops. */
export function onShutdown(name: string, close: () => Promise<void>): void {
  state.hooks.set(name, close);
}

export function forgetShutdown(name: string): void {
  state.hooks.delete(name);
}

/** Closes everything registered, each once, failures aside. */
export async function runShutdown(): Promise<void> {
  const hooks = [...state.hooks.values()];
  state.hooks.clear();
  await Promise.allSettled(hooks.map((close) => close()));
}

/** Readiness turns DOWN so that traffic moves elsewhere while requests in flight finish. */
export function markDraining(): void {
  state.draining = true;
}

export function isDraining(): boolean {
  return state.draining;
}
