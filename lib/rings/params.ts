import { z } from 'zod';
import { LINK_KINDS } from './kinds';

/**
 * The Rings page's URL state, declared once: the page parses it, the filter form writes it.
 * Forgiving: an unknown value falls back to its default instead of failing the page.
 */
export const RING_STATUSES = ['open', 'dismissed', 'labelled', 'all'] as const;

export const ringFiltersSchema = z.object({
  minSize: z.coerce.number().int().min(2).max(100_000).catch(2).default(2),
  kind: z.enum(LINK_KINDS).nullable().catch(null).default(null),
  growth: z.enum(['24h', '7d']).nullable().catch(null).default(null),
  status: z.enum(RING_STATUSES).catch('open').default('open'),
  page: z.coerce.number().int().min(1).max(10_000).catch(1).default(1),
});
export type RingFilters = z.output<typeof ringFiltersSchema> & { id?: number };

export function parseRingFilters(sp: Record<string, string | string[] | undefined>): RingFilters {
  const one = (k: string) => (Array.isArray(sp[k]) ? sp[k][0] : sp[k]) || undefined;
  return ringFiltersSchema.parse({
    minSize: one('minSize'),
    kind: one('kind') ?? null,
    growth: one('growth') ?? null,
    status: one('status'),
    page: one('page'),
  });
}
