/**
 * Runs once when the console's server starts, before it answers its first request (Next awaits
 * `register` in `prepare`). The job queue starts here: started lazily, its first use could come
 * inside a transaction (a resolve that sends FRAUD queues the delivery in it), and starting it
 * there asks the database for other connections, which the embedded database holds back until the
 * transaction ends, forever (lib/db/second-connection.ts; issue 19, item 4).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  if (!process.env.DATABASE_URL) return;
  const { getBoss } = await import('@/lib/jobs/boss');
  // An unreachable database must not keep the console from starting: the queue then starts on
  // first use outside a transaction (callers start it before theirs: lib/feedback/store.ts).
  await getBoss().catch((err: unknown) =>
    console.error('[jobs] The job queue did not start with the console:', err instanceof Error ? err.message : err),
  );
}
