import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db/client';
import { ingestMany } from '@/lib/sync/ingest';
import { purgePersonalData } from '@/lib/sync/purge';
import { buildExecution } from '../support/fixtures/execution';

/**
 * The search postings (migration 0034) are written by triggers on executions, never by the app:
 * whatever writes an execution's tokens (ingest, a purge, a script's UPDATE or DELETE) leaves the
 * postings equal to them, with the execution's created time.
 */
async function postingsOf(id: string) {
  const r = await db().execute<{ token: string; at: string }>(
    sql`select token, created_at::text as at from execution_search_postings where execution_id = ${id}::uuid order by token`,
  );
  return r.rows;
}
async function tokensOf(id: string) {
  const r = await db().execute<{ tokens: string[]; at: string }>(
    sql`select search_tokens as tokens, created_at::text as at from executions where id = ${id}::uuid`,
  );
  return r.rows[0];
}
const asPostings = (row: { tokens: string[]; at: string }) => row.tokens.map((token) => ({ token, at: row.at }));

async function ingestOne(firstName: string, lastName: string) {
  const x = buildExecution({ firstName, lastName });
  await ingestMany(db(), [{ result: x.result, steps: x.steps, rules: x.rules, fetchedAt: new Date() }]);
  return x.id;
}

describe('search postings follow the tokens of every execution (real database)', () => {
  it('are written on ingest, one per token, in a batch of several executions', async () => {
    const a = buildExecution({ firstName: 'Mary-Jo', lastName: 'Postings Van Dyke' });
    const b = buildExecution({ firstName: 'José', lastName: 'Postingsson' });
    await ingestMany(
      db(),
      [a, b].map((x) => ({ result: x.result, steps: x.steps, rules: x.rules, fetchedAt: new Date() })),
    );
    for (const id of [a.id, b.id]) {
      const row = await tokensOf(id);
      expect(row.tokens).toContain(id === a.id ? 'maryjo' : 'jose');
      expect(await postingsOf(id)).toEqual(asPostings(row));
    }
  });

  it('follow a name the service corrected, when the execution is fetched again', async () => {
    const x = buildExecution({ firstName: 'Ottilie', lastName: 'Postingbrook' });
    const input = () => ({ result: structuredClone(x.result), steps: x.steps, rules: x.rules, fetchedAt: new Date() });
    await ingestMany(db(), [input()]);
    expect((await postingsOf(x.id)).map((p) => p.token)).toContain('postingbrook');
    const again = input();
    ((again.result as Record<string, any>).capabilities.extraction[0].data as Record<string, unknown>).lastName =
      'Postingbury';
    await ingestMany(db(), [again]);
    const row = await tokensOf(x.id);
    expect(row.tokens).toContain('postingbury');
    expect(await postingsOf(x.id)).toEqual(asPostings(row));
    expect((await postingsOf(x.id)).map((p) => p.token)).not.toContain('postingbrook');
  });

  it('follow a changed name and an emptied set of tokens, and go with a deleted execution', async () => {
    const id = await ingestOne('Quentin', 'Postingham');
    await db().execute(
      sql`update executions set search_tokens = array['postingham', 'quincy']::text[] where id = ${id}::uuid`,
    );
    expect((await postingsOf(id)).map((p) => p.token)).toEqual(['postingham', 'quincy']);
    // An update that leaves the tokens alone keeps them (the trigger does not run).
    await db().execute(sql`update executions set feedback_reason = 'x' where id = ${id}::uuid`);
    expect((await postingsOf(id)).map((p) => p.token)).toEqual(['postingham', 'quincy']);
    await db().execute(sql`update executions set search_tokens = '{}' where id = ${id}::uuid`);
    expect(await postingsOf(id)).toEqual([]);
    await db().execute(sql`update executions set search_tokens = array['quincy']::text[] where id = ${id}::uuid`);
    expect(await postingsOf(id)).toHaveLength(1);
    await db().execute(sql`delete from executions where id = ${id}::uuid`);
    expect(await postingsOf(id)).toEqual([]);
  });

  it('are gone when personal data is purged', async () => {
    const id = await ingestOne('Rosalind', 'Postingfield');
    expect((await postingsOf(id)).length).toBeGreaterThan(1);
    expect(await purgePersonalData(db(), [id], { reason: 'gone' })).toBe(1);
    expect(await postingsOf(id)).toEqual([]);
    const left = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from execution_search_postings where token in ('rosalind', 'postingfield') and execution_id = ${id}::uuid`,
    );
    expect(left.rows[0].n).toBe(0);
  });
});
