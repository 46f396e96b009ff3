/** QA weeks, Monday to Sunday in UTC. Pure date arithmetic, safe to import anywhere (pages, tests). */

/** Monday (UTC) of the week holding `at`, as YYYY-MM-DD. */
export function weekOf(at: Date): string {
  const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

/** The last complete week: the one the weekly schedule samples. */
export const lastWeek = (now = new Date()) => weekOf(new Date(now.getTime() - 7 * 86_400_000));
