'use client';
import { X } from 'lucide-react';
import { filterChips, type ChipNames } from '@/lib/executions/list-params';
import { useListNav } from './list-nav';

/** The active filters as removable chips, so the state of the list is always visible. */
export function ActiveFilters({ names }: { names?: ChipNames }) {
  const { params, go } = useListNav();
  const chips = filterChips(params, names);
  if (!chips.length) return null;
  return (
    <ul aria-label="Active filters" className="flex flex-wrap items-center gap-1.5">
      {chips.map((c) => (
        <li key={c.key}>
          <button
            type="button"
            onClick={() => go(c.remove)}
            className="inline-flex items-center gap-1 rounded-full border border-border bg-card px-2.5 py-0.5 text-xs hover:bg-muted"
            aria-label={`Remove filter ${c.label}`}
          >
            {c.label}
            <X aria-hidden className="h-3 w-3" />
          </button>
        </li>
      ))}
    </ul>
  );
}
