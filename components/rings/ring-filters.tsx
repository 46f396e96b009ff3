import Link from 'next/link';
import { Button } from '@/components/ui/button';
import { FormField, Input, Select } from '@/components/ui/input';
import { LINK_KIND_LABELS, LINK_KINDS } from '@/lib/rings/kinds';
import type { RingFilters } from '@/lib/rings/params';

/** A plain GET form: the filters live in the URL, so a filtered view can be shared and reloaded. */
export function RingFiltersForm({ filters }: { filters: RingFilters }) {
  return (
    <form method="get" action="/rings" className="mb-4 flex flex-wrap items-end gap-3" aria-label="Filter rings">
      <FormField id="ring-min-size" label="Minimum members" className="gap-1">
        {({ id }) => (
          <Input id={id} name="minSize" type="number" min={2} defaultValue={filters.minSize} className="w-28" />
        )}
      </FormField>
      <FormField id="ring-kind" label="Joined by" className="gap-1">
        {({ id }) => (
          <Select id={id} name="kind" defaultValue={filters.kind ?? ''}>
            <option value="">Any link</option>
            {LINK_KINDS.map((k) => (
              <option key={k} value={k}>
                {LINK_KIND_LABELS[k]}
              </option>
            ))}
          </Select>
        )}
      </FormField>
      <FormField id="ring-growth" label="Growth" className="gap-1">
        {({ id }) => (
          <Select id={id} name="growth" defaultValue={filters.growth ?? ''}>
            <option value="">Any</option>
            <option value="24h">New members in 24 h</option>
            <option value="7d">New members in 7 days</option>
          </Select>
        )}
      </FormField>
      <FormField id="ring-status" label="Status" className="gap-1">
        {({ id }) => (
          <Select id={id} name="status" defaultValue={filters.status}>
            <option value="open">Open</option>
            <option value="labelled">Labelled FRAUD</option>
            <option value="dismissed">Dismissed</option>
            <option value="all">All</option>
          </Select>
        )}
      </FormField>
      <Button type="submit" size="sm">
        Apply
      </Button>
      <Link href="/rings" className="text-sm text-muted-fg hover:underline">
        Reset
      </Link>
    </form>
  );
}
