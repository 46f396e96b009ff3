import { describe, expect, it } from 'vitest';
import { safeNext } from '@/lib/auth/safe-next';

const ORIGIN = 'http://localhost:3000';

describe('the destination after sign-in stays on the origin', () => {
  it.each([
    ['/\\evil.example', '/'],
    ['/\\/evil.example', '/'],
    ['/\t/evil.example', '/'],
    ['/%09/evil.example', '/%09/evil.example'],
    ['//evil.example', '/'],
    ['///evil.example', '/'],
    ['https://evil.example/', '/'],
    ['javascript:alert(1)', '/'],
    ['/login', '/'],
    ['/login?next=/x', '/'],
    ['', '/'],
    [null, '/'],
  ])('%j goes to %j', (next, expected) => {
    expect(safeNext(next, ORIGIN)).toBe(expected);
  });

  it('keeps a same-origin path with its query and hash', () => {
    expect(safeNext('/executions?decision=REJECTED#top', ORIGIN)).toBe('/executions?decision=REJECTED#top');
    expect(safeNext('/executions/../trends', ORIGIN)).toBe('/trends');
  });
});
