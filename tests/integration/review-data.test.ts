import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getExecutionDetail } from '@/lib/executions/detail';
import { createReveal, endReveal, getActiveReveal, revealedIds } from '@/lib/pii/reveals';
import { countList } from '@/lib/executions/total';
import { listWhere } from '@/lib/executions/where';
import { listWhereOf, resolveSearch } from '@/lib/executions/queries';
import { adoptSearchTerm, resolveSearchTerm, saveSearchTerm, SEARCHES_PER_MINUTE } from '@/lib/executions/search-terms';
import { DEFAULT_LIST_PARAMS as LIST_DEFAULTS } from '@/lib/executions/list-params';
import { db } from '@/lib/db/client';
import { auditLog, searchTerms, users } from '@/lib/db/schema';
import { ingestMany } from '@/lib/sync/ingest';
import { FX, PERSON, unusualExecutions, XSS_NAME } from '../support/fixtures/review';

/** The detail's data layer against a real database: masking, reveals and their audit, links, search tokens. */
const user = { id: randomUUID(), email: `reviewer-${Date.now()}@example.test` };
const other = { id: randomUUID(), email: `other-${Date.now()}@example.test` };

beforeAll(async () => {
  await db()
    .insert(users)
    .values([
      { id: user.id, email: user.email, name: 'Reviewer', role: 'analyst' },
      { id: other.id, email: other.email, name: 'Other', role: 'analyst' },
    ]);
  // Fixed fixture ids: another test file may have written them already (ingest is idempotent).
  await ingestMany(
    db(),
    unusualExecutions().map((x) => ({ ...x, fetchedAt: new Date() })),
  );
});

describe('execution detail data', () => {
  it('is masked by default, revealed for 15 minutes to one user with a reason, both audited', async () => {
    const masked = await getExecutionDetail(FX.every, user);
    expect(masked).not.toBeNull();
    const text = JSON.stringify(masked);
    expect(text).not.toContain(PERSON.lastName);
    expect(text).not.toContain(PERSON.documentNumber);
    expect(text).not.toContain('203.0.113.77');
    expect(masked!.name).toMatch(/^P•+ Q•+$/);
    expect(masked!.reveal).toBeNull();

    const r = await createReveal(user, FX.every, 'Comparing the selfie for case 17');
    expect(r!.expiresAt.getTime() - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(r!.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(15 * 60_000 + 5_000);
    const clear = await getExecutionDetail(FX.every, user);
    expect(clear!.name).toBe(`${PERSON.firstName} ${PERSON.lastName}`);
    expect(JSON.stringify(clear!.result)).toContain(PERSON.documentNumber);
    // Another user still sees it masked.
    expect(JSON.stringify(await getExecutionDetail(FX.every, other))).not.toContain(PERSON.lastName);
    expect([...(await revealedIds(user.id, [FX.every, FX.wiped]))]).toEqual([FX.every]);

    const trail = await db().select().from(auditLog).where(eq(auditLog.targetId, FX.every));
    expect(trail.find((a) => a.action === 'pii.reveal' && a.actorId === user.id)?.details).toMatchObject({
      reason: 'Comparing the selfie for case 17',
      minutes: 15,
    });
    expect(trail.filter((a) => a.action === 'execution.view' && a.actorId === user.id).length).toBeGreaterThanOrEqual(
      2,
    );
    // The audit records which record was read, never what it says.
    expect(JSON.stringify(trail)).not.toContain(PERSON.lastName);

    expect(await endReveal(user, FX.every)).toBe(true);
    expect(await getActiveReveal(user.id, FX.every)).toBeNull();
    expect((await getExecutionDetail(FX.every, user))!.name).toMatch(/•/);
  });

  it('compares extracted and supplied data on the real values, and links other executions', async () => {
    const d = (await getExecutionDetail(FX.every, user))!;
    const last = d.comparison.find((c) => c.field === 'lastName')!;
    expect(last.mismatch).toBe(true);
    expect(String(last.extracted)).toMatch(/^Q•+$/);
    expect(d.comparison.find((c) => c.field === 'firstName')!.mismatch).toBe(false);
    expect(d.comparison.find((c) => c.field === 'address.country')).toMatchObject({
      extracted: 'GBR',
      supplied: 'GBR',
      mismatch: false,
    });
    expect(d.links.document.map((l) => l.id)).toEqual([FX.sameDoc]);
    expect(d.links.account.map((l) => l.id)).toEqual([FX.sameDoc]);
    expect(d.links.face.map((l) => l.id)).toEqual([FX.face]);
    expect(d.links.notCached).toBeGreaterThanOrEqual(1);
    expect(d.images.map((i) => i.classifier).sort()).toEqual(['BACK', 'FACE', 'FRONT']);
    // The other side of the face link finds this execution too.
    expect((await getExecutionDetail(FX.face, user))!.links.face.map((l) => l.id)).toContain(FX.every);
  });

  it('handles unusual results: wiped, minimal, hostile text, unknown ids', async () => {
    const wiped = (await getExecutionDetail(FX.wiped, user))!;
    expect(wiped.wipedOutAt).not.toBeNull();
    expect(wiped.hasPersonalData).toBe(false);
    expect(wiped.images).toEqual([]);
    const minimal = (await getExecutionDetail(FX.minimal, user))!;
    expect(minimal).toMatchObject({
      decisionType: null,
      riskScore: null,
      steps: [],
      ruleExecutions: [],
      comparison: [],
    });
    const hostile = (await getExecutionDetail(FX.xss, user))!;
    expect(hostile.name).toMatch(/^<•+/);
    await createReveal(user, FX.xss, 'Checking hostile text rendering');
    expect((await getExecutionDetail(FX.xss, user))!.name).toContain(XSS_NAME);
    expect(await getExecutionDetail('not-a-uuid', user)).toBeNull();
    expect(await getExecutionDetail(randomUUID(), user)).toBeNull();
    expect(await createReveal(user, randomUUID(), 'No such execution here')).toBeNull();
  });
});

describe('search tokens', () => {
  it('stores a search once per user and term, resolves it for its user, and forgets expired ones', async () => {
    const a = await saveSearchTerm(user, '  Philippa   Quartermaine ');
    expect(a).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(await saveSearchTerm(user, 'philippa quartermaine')).toBe(a);
    expect(await resolveSearchTerm(a, user.id)).toEqual({ term: 'Philippa Quartermaine' });
    const b = await saveSearchTerm(other, 'Philippa Quartermaine');
    expect(b).not.toBe(a);
    await db()
      .update(searchTerms)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(searchTerms.token, b));
    expect(await resolveSearchTerm(b, other.id)).toBeNull();
    expect(await resolveSearchTerm('nonexistenttoken', user.id)).toBeNull();
  });

  it('a link opened by another user is not run as it is: it becomes their own search, audited and counted for them', async () => {
    const owner = { id: randomUUID(), email: `link-owner-${Date.now()}@example.test` };
    const opener = { id: randomUUID(), email: `link-opener-${Date.now()}@example.test` };
    await db()
      .insert(users)
      .values([
        { id: owner.id, email: owner.email, name: 'Owner', role: 'analyst' },
        { id: opener.id, email: opener.email, name: 'Opener', role: 'analyst' },
      ]);
    const shared = await saveSearchTerm(owner, 'Philippa Quartermaine');
    expect(await resolveSearchTerm(shared, opener.id)).toBe('foreign');
    // Run through the list's where (and so the CSV export), it searches nothing and says why.
    const { search } = await listWhereOf({ ...LIST_DEFAULTS, st: shared }, opener.id);
    expect(search).toMatchObject({ words: null, notice: 'not_yours' });

    const counter = async () =>
      (
        await db().execute<{ count: number }>(
          sql`select coalesce(sum(count), 0)::int as count from rate_counters where key = ${`search:${opener.id}`}`,
        )
      ).rows[0].count;
    expect(await counter()).toBe(0);
    const own = await adoptSearchTerm(opener, shared);
    expect(own).not.toBe(shared);
    expect(await resolveSearchTerm(own!, opener.id)).toEqual({ term: 'Philippa Quartermaine' });
    expect(await counter()).toBe(1);
    const entries = await db().select().from(auditLog).where(eq(auditLog.actorId, opener.id));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'executions.search', outcome: 'success' });
    expect(entries[0].details).toMatchObject({ token: own, sharedFrom: shared });
    // Its own user's link stays as it is, and costs nothing more.
    expect(await adoptSearchTerm(owner, shared)).toBe(shared);

    // Over the opener's limit, it is refused (the list says why), and that is audited too.
    await db().execute(
      sql`update rate_counters set count = ${SEARCHES_PER_MINUTE() + 5}, window_start = date_trunc('minute', now()) where key = ${`search:${opener.id}`}`,
    );
    const other2 = await saveSearchTerm(owner, 'Quartermaine');
    await expect(adoptSearchTerm(opener, other2)).rejects.toThrow(/Too many searches/);
    const denied = await db().select().from(auditLog).where(eq(auditLog.actorId, opener.id));
    expect(denied.find((e) => e.outcome === 'denied')?.details).toMatchObject({
      reason: 'rate_limited',
      sharedFrom: other2,
    });
  });
});

describe('search that reveals nothing', () => {
  const count = async (term: string) => {
    const r = await resolveSearch(term);
    if (!r.words) return 0;
    const total = await countList(
      listWhere(LIST_DEFAULTS, { words: r.words, refPrefix: r.refPrefix, exactReference: r.exactReference }),
    );
    return total.exact ? total.count : total.estimate;
  };

  it('finds a document number whole, never from a fragment; a name whole, never from a part', async () => {
    expect(await count(PERSON.documentNumber)).toBeGreaterThan(0);
    expect(await count(PERSON.documentNumber.toLowerCase())).toBeGreaterThan(0);
    // From a masked ••••1234, growing the fragment one character at a time finds nothing.
    for (let i = 3; i < PERSON.documentNumber.length; i++) expect(await count(PERSON.documentNumber.slice(-i))).toBe(0);
    expect(await count(PERSON.documentNumber.slice(0, 5))).toBe(0);
    expect(await count('Quartermaine')).toBeGreaterThan(0);
    expect(await count('Quarterm')).toBe(0);
    expect(await count('Philippa Quartermaine')).toBeGreaterThan(0);
  });

  it('records every search in the audit log by token and keyed hash, never its words', async () => {
    const searcher = { id: randomUUID(), email: `searcher-${Date.now()}@example.test` };
    await db().insert(users).values({ id: searcher.id, email: searcher.email, name: 'Searcher', role: 'analyst' });
    const token = await saveSearchTerm(searcher, `${PERSON.documentNumber}`);
    const rows = await db().select().from(auditLog).where(eq(auditLog.actorId, searcher.id));
    expect(rows.map((r) => r.action)).toEqual(['executions.search']);
    expect(rows[0].details).toMatchObject({ token });
    expect(JSON.stringify(rows[0])).not.toContain(PERSON.documentNumber);
    expect(JSON.stringify(rows[0]).toLowerCase()).not.toContain(PERSON.documentNumber.toLowerCase());
  });

  it('limits searches per user per minute, across processes (in Postgres), with a clear message', async () => {
    // The count is kept per minute of the database's clock, and starts again when the minute turns:
    // should it turn between the count set here and the second search, that try is made again
    // (with a user of its own).
    const minute = async () =>
      (await db().execute<{ m: string }>(sql`select date_trunc('minute', now())::text as m`)).rows[0].m;
    for (let attempt = 1; ; attempt++) {
      const busy = { id: randomUUID(), email: `busy-${attempt}-${Date.now()}@example.test` };
      await db().insert(users).values({ id: busy.id, email: busy.email, name: 'Busy', role: 'analyst' });
      const started = await minute();
      // One search short of the limit in this minute's window.
      await db().execute(
        sql`insert into rate_counters (key, window_start, count) values (${`search:${busy.id}`}, date_trunc('minute', now()), ${SEARCHES_PER_MINUTE() - 1})`,
      );
      await saveSearchTerm(busy, 'first allowed search');
      const refused = await saveSearchTerm(busy, 'one too many').then(
        () => null,
        (err: unknown) => err,
      );
      if ((await minute()) !== started && attempt < 3) continue;
      expect(refused).toBeInstanceOf(Error);
      expect((refused as Error).message).toMatch(/Too many searches/);
      const denied = await db().select().from(auditLog).where(eq(auditLog.actorId, busy.id));
      expect(denied.map((r) => r.outcome).sort()).toEqual(['denied', 'success']);
      return;
    }
  });
});
