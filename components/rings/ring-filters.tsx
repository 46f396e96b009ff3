import Link from 'next/link';
import { Button } from '@/components/ui/button';
import { Input, Label, Select } from '@/components/ui/input';
import { LINK_KIND_LABELS, LINK_KINDS } from '@/lib/rings/kinds';
import type { RingFilters } from '@/lib/rings/params';

/** A plain GET form: the filters live in the URL, so a filtered view can be shared and reloaded. */
export function RingFiltersForm({ filters }: { filters: RingFilters }) {
  return (
    <form method="get" action="/rings" className="mb-4 flex flex-wrap items-end gap-3" aria-label="Filter rings">
      <div className="flex flex-col gap-1">
        <Label htmlFor="ring-min-size">Minimum members</Label>
        <Input
          id="ring-min-size"
          name="minSize"
          type="number"
          min={2}
          defaultValue={filters.minSize}
          className="w-28"
        />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="ring-kind">Joined by</Label>
        <Select id="ring-kind" name="kind" defaultValue={filters.kind ?? ''}>
          <option value="">Any link</option>
          {LINK_KINDS.map((k) => (
            <option key={k} value={k}>
              {LINK_KIND_LABELS[k]}
            </option>
          ))}
        </Select>
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="ring-growth">Growth</Label>
        <Select id="ring-growth" name="growth" defaultValue={filters.growth ?? ''}>
          <option value="">Any</option>
          <option value="24h">New members in 24 h</option>
          <option value="7d">New members in 7 days</option>
        </Select>
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="ring-status">Status</Label>
        <Select id="ring-status" name="status" defaultValue={filters.status}>
          <option value="open">Open</option>
          <option value="labelled">Labelled FRAUD</option>
          <option value="dismissed">Dismissed</option>
          <option value="all">All</option>
        </Select>
      </div>
      <Button type="submit" size="sm">
        Apply
      </Button>
      <Link href="/rings" className="text-sm text-muted-fg hover:underline">
        Reset
      </Link>
    </form>
  );
}
