/**
 * What a failure logs: the error's class, its database code and constraint, and where it was
 * thrown. Never the message: drizzle's "Failed query … params: …" carries the parameters, which
 * are search terms, reveal reasons and notes, and service errors can quote personal data.
 */
export function logError(where: string, err: unknown) {
  const e = (err ?? {}) as {
    name?: string;
    code?: string;
    status?: number;
    cause?: { code?: string; constraint?: string };
  };
  // Stack frames only: the stack's first lines repeat the message, parameters included.
  const at =
    err instanceof Error
      ? (err.stack ?? '')
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l.startsWith('at '))
          .slice(0, 3)
      : [];
  const kind = err instanceof Error ? (err.constructor?.name ?? e.name) : typeof err;
  console.error(
    `[${where}] failed`,
    JSON.stringify({
      error: kind,
      code: e.code ?? e.cause?.code,
      constraint: e.cause?.constraint,
      status: e.status,
      at,
    }),
  );
}
