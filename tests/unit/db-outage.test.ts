import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import {
  asOutage,
  DATABASE_OUTAGE_DIGEST,
  DatabaseOutageError,
  isDatabaseOutage,
  markDatabaseError,
  retryRead,
} from '@/lib/db/outage';
import { IdvNetworkError } from '@/lib/idv/errors';

const pgError = (code: string, message = 'terminating connection due to administrator command') =>
  Object.assign(new Error(message), { code });
const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });
const fromDatabase = <E>(err: E, stage: 'connect' | 'statement' = 'statement'): E => {
  markDatabaseError(err, stage);
  return err;
};
const inQuery = (cause: unknown) =>
  new DrizzleQueryError('select 1 from users where id = $1', ['secret'], cause as Error);

describe('what counts as a transient database outage', () => {
  it('the server stopping, restarting or starting, and lost connections, also under a drizzle query', () => {
    for (const code of ['57P01', '57P02', '57P03', '08000', '08003', '08006'])
      expect(isDatabaseOutage(inQuery(pgError(code))), code).toBe(true);
    expect(isDatabaseOutage(inQuery(fromDatabase(socketError('ECONNREFUSED'), 'connect')))).toBe(true);
    expect(isDatabaseOutage(fromDatabase(socketError('ECONNRESET')))).toBe(true);
    expect(isDatabaseOutage(inQuery(fromDatabase(new Error('Connection terminated unexpectedly'))))).toBe(true);
    // Node's connect to several addresses fails with one error per address.
    const many = fromDatabase(
      new AggregateError([socketError('ECONNREFUSED'), socketError('ECONNREFUSED')]),
      'connect',
    );
    expect(isDatabaseOutage(many)).toBe(true);
  });

  it('not a wrong statement, and not the service being unreachable (same socket codes, not the database)', () => {
    expect(isDatabaseOutage(inQuery(pgError('23505', 'duplicate key value')))).toBe(false);
    expect(isDatabaseOutage(inQuery(pgError('40P01', 'deadlock detected')))).toBe(false);
    expect(isDatabaseOutage(new Error('Connection terminated unexpectedly'))).toBe(false);
    expect(isDatabaseOutage(socketError('ECONNREFUSED'))).toBe(false);
    const service = new IdvNetworkError({
      operation: 'R2 getExecution',
      method: 'GET',
      url: 'http://127.0.0.1:4010/api/v1/x',
      timedOut: false,
      attempts: 3,
      code: 'ECONNREFUSED',
      cause: new TypeError('fetch failed', { cause: socketError('ECONNREFUSED') }),
    });
    expect(isDatabaseOutage(service)).toBe(false);
    expect(isDatabaseOutage(undefined)).toBe(false);
  });

  it('becomes an error with the digest the error pages know, keeping the code and not the parameters', () => {
    const err = asOutage(inQuery(pgError('57P01')));
    expect(err).toBeInstanceOf(DatabaseOutageError);
    expect((err as DatabaseOutageError).digest).toBe(DATABASE_OUTAGE_DIGEST);
    expect((err as Error).message).toBe('Verdict cannot reach its database (57P01)');
    expect(JSON.stringify(err)).not.toContain('secret');
    expect(isDatabaseOutage(err)).toBe(true);
    const other = pgError('23505');
    expect(asOutage(other)).toBe(other);
  });
});

describe('retryRead', () => {
  const failing = (errors: unknown[]) => {
    let calls = 0;
    const read = async () => {
      const err = errors[calls++];
      if (err) throw err;
      return 'rows';
    };
    return { read, calls: () => calls };
  };

  it('sends a read cut mid-flight by a restart once more', async () => {
    const r = failing([inQuery(pgError('57P01'))]);
    await expect(retryRead(r.read)).resolves.toBe('rows');
    expect(r.calls()).toBe(2);
  });

  it('gives up after the second outage, and never retries another error or a refused connection', async () => {
    const twice = failing([inQuery(pgError('57P01')), inQuery(pgError('57P03'))]);
    await expect(retryRead(twice.read)).rejects.toThrow(DrizzleQueryError);
    expect(twice.calls()).toBe(2);
    const wrong = failing([inQuery(pgError('42P01', 'relation does not exist'))]);
    await expect(retryRead(wrong.read)).rejects.toThrow(DrizzleQueryError);
    expect(wrong.calls()).toBe(1);
    // The pool already tried that connection again (lib/db/pool.ts).
    const refused = failing([inQuery(fromDatabase(socketError('ECONNREFUSED'), 'connect'))]);
    await expect(retryRead(refused.read)).rejects.toThrow(DrizzleQueryError);
    expect(refused.calls()).toBe(1);
  });
});
