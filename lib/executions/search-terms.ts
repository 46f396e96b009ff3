import 'server-only';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { audit } from '@/lib/audit';
import { db } from '@/lib/db/client';
import { searchTerms } from '@/lib/db/schema';

/** How long a search link keeps working. */
export const SEARCH_TERM_DAYS = 14;
export const SEARCH_TERM_MAX = 200;

export function normaliseSearchTerm(term: string): string {
  return term.normalize('NFC').trim().replace(/\s+/g, ' ').slice(0, SEARCH_TERM_MAX);
}

/** Searches one user may run per minute, across every console process. */
export const SEARCHES_PER_MINUTE = () => Number(process.env.SEARCHES_PER_MINUTE ?? 30);

export class SearchRateLimited extends Error {
  constructor() {
    super(`Too many searches: at most ${SEARCHES_PER_MINUTE()} a minute. Wait a moment and search again.`);
  }
}

/**
 * Counts this user's search in a fixed one-minute window (one upsert in Postgres, so several
 * consoles share the count). Whole-value matching already makes guessing slow; the limit makes
 * walking a list of candidate names or numbers slower still, and the audit log shows who tried.
 */
async function countSearch(userId: string): Promise<number> {
  const { rows } = await db().execute<{ count: number }>(sql`
    insert into rate_counters as r (key, window_start, count) values (${`search:${userId}`}, date_trunc('minute', now()), 1)
    on conflict (key) do update set
      count = case when r.window_start = date_trunc('minute', now()) then r.count + 1 else 1 end,
      window_start = date_trunc('minute', now())
    returning count`);
  return rows[0].count;
}

/** A keyed hash of a search for the audit log: equal searches are linkable, the words are not readable. */
function auditHashOf(term: string): string {
  return createHmac('sha256', process.env.NEXTAUTH_SECRET ?? 'verdict-search')
    .update(term.toLowerCase())
    .digest('base64url')
    .slice(0, 22);
}

/**
 * Stores a free-text search and returns its token for the URL. The same user searching the same
 * words gets the same token back (its expiry moves forward), so history and shared links stay
 * stable. Every search is rate limited per user and recorded in the audit log by its token and
 * a keyed hash, never by its words.
 */
export async function saveSearchTerm(
  user: { id: string; email: string },
  raw: string,
  opts: { sharedFrom?: string } = {},
): Promise<string> {
  const userId = user.id;
  const term = normaliseSearchTerm(raw);
  const shared = opts.sharedFrom ? { sharedFrom: opts.sharedFrom } : {};
  if ((await countSearch(userId)) > SEARCHES_PER_MINUTE()) {
    await audit({
      action: 'executions.search',
      actor: user,
      outcome: 'denied',
      details: { reason: 'rate_limited', termHash: auditHashOf(term), ...shared },
    });
    throw new SearchRateLimited();
  }
  const termHash = createHash('sha256').update(term.toLowerCase()).digest('hex');
  const token = randomBytes(12).toString('base64url');
  const d = db();
  const [row] = await d
    .insert(searchTerms)
    .values({
      token,
      term,
      termHash,
      createdBy: userId,
      expiresAt: sql`now() + make_interval(days => ${SEARCH_TERM_DAYS})`,
    })
    .onConflictDoUpdate({
      target: [searchTerms.createdBy, searchTerms.termHash],
      set: { expiresAt: sql`excluded.expires_at` },
    })
    .returning({ token: searchTerms.token });
  // Expired searches are removed as new ones arrive: the table stays small without a job.
  await d.delete(searchTerms).where(lt(searchTerms.expiresAt, sql`now()`));
  await audit({
    action: 'executions.search',
    actor: user,
    details: { token: row.token, termHash: auditHashOf(term), words: term.split(' ').length, ...shared },
  });
  return row.token;
}

async function findSearchTerm(token: string) {
  const [row] = await db()
    .select({ term: searchTerms.term, createdBy: searchTerms.createdBy })
    .from(searchTerms)
    .where(and(eq(searchTerms.token, token), gt(searchTerms.expiresAt, sql`now()`)))
    .limit(1);
  return row ?? null;
}

/**
 * The search behind a token, for the user who saved it. Another user's token is not run as it is
 * (`foreign`): its search would run under nobody's limit and in nobody's audit entries. The list
 * adopts it instead (`adoptSearchTerm`). Null when unknown or expired.
 */
export async function resolveSearchTerm(token: string, userId: string): Promise<{ term: string } | 'foreign' | null> {
  const row = await findSearchTerm(token);
  if (!row) return null;
  return row.createdBy === userId ? { term: row.term } : 'foreign';
}

/**
 * A search link opened by someone other than the user who saved it becomes that user's own
 * search: counted against their limit and recorded in the audit log under their name (with the
 * link's token), and given their own token. Returns the token to use (the same one for its own
 * user), or null when unknown or expired; throws SearchRateLimited when over the limit.
 */
export async function adoptSearchTerm(user: { id: string; email: string }, token: string): Promise<string | null> {
  const row = await findSearchTerm(token);
  if (!row) return null;
  if (row.createdBy === user.id) return token;
  return saveSearchTerm(user, row.term, { sharedFrom: token });
}
