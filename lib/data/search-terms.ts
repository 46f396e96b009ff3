import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { db } from '@/lib/db/client';
import { searchTerms } from '@/lib/db/schema';

/** How long a search link keeps working. */
export const SEARCH_TERM_DAYS = 14;
export const SEARCH_TERM_MAX = 200;

export function normaliseSearchTerm(term: string): string {
  return term.normalize('NFC').trim().replace(/\s+/g, ' ').slice(0, SEARCH_TERM_MAX);
}

/**
 * Stores a free-text search and returns its token for the URL. The same user searching the same
 * words gets the same token back (its expiry moves forward), so history and shared links stay stable.
 */
export async function saveSearchTerm(userId: string, raw: string): Promise<string> {
  const term = normaliseSearchTerm(raw);
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
  return row.token;
}

/** The search behind a token, for any analyst who opens the link; null when unknown or expired. */
export async function resolveSearchTerm(token: string): Promise<string | null> {
  const [row] = await db()
    .select({ term: searchTerms.term })
    .from(searchTerms)
    .where(and(eq(searchTerms.token, token), gt(searchTerms.expiresAt, sql`now()`)))
    .limit(1);
  return row?.term ?? null;
}
