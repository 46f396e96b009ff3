import { afterEach, describe, expect, it, vi } from 'vitest';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { log, logError } from '@/lib/log';

describe('a failed action is logged without its parameters', () => {
  afterEach(() => vi.restoreAllMocks());

  it('logs the class, the database code and the constraint, never the query or its params', () => {
    const spy = vi.spyOn(log, 'error').mockImplementation(() => undefined);
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "notes_pkey"'), {
      code: '23505',
      constraint: 'notes_pkey',
    });
    const err = new DrizzleQueryError(
      'insert into notes (body) values ($1)',
      ['Jane Doe, passport X1234567, reason: suspected fraud'],
      cause,
    );
    logError('action addNoteAction', err);
    // What the logger is given is what its JSON line holds.
    const printed = JSON.stringify(spy.mock.calls);
    expect(printed).toContain('addNoteAction');
    expect(printed).toContain('23505');
    expect(printed).toContain('notes_pkey');
    expect(printed).not.toContain('Jane Doe');
    expect(printed).not.toContain('X1234567');
    expect(printed).not.toContain('insert into notes');
  });
});
