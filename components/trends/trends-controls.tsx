'use client';
import { Loader2, RotateCcw } from 'lucide-react';
import { useRouter } from 'next/navigation';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { FieldError, Label, Select } from '@/components/ui/input';
import {
  GRANULARITIES,
  MAX_RANGE_DAYS,
  trendsHref,
  type Granularity,
  type RangeKey,
  type TrendsFilters,
} from '@/lib/trends/shared';
import { cn, dayFormatError, isIsoDay } from '@/lib/utils';
import { DateInput } from '@/components/ui/date-input';
import { countryLabel } from '@/lib/countries';

const RANGE_LABELS: Record<RangeKey, string> = {
  '7': '7 days',
  '30': '30 days',
  '90': '90 days',
  '365': '365 days',
  custom: 'Custom',
};
const GRANULARITY_LABELS: Record<Granularity, string> = { day: 'Day', week: 'Week', month: 'Month' };

function Segmented<T extends string>({
  label,
  values,
  names,
  value,
  onChange,
}: {
  label: string;
  values: readonly T[];
  names: Record<T, string>;
  value: T;
  onChange: (v: T) => void;
}) {
  return (
    <div className="flex flex-col gap-1">
      <span className="text-sm font-medium" id={`seg-${label}`}>
        {label}
      </span>
      <div
        role="group"
        aria-labelledby={`seg-${label}`}
        className="flex h-9 max-w-full overflow-x-auto rounded-md border border-border bg-card p-0.5"
      >
        {values.map((v) => (
          <button
            key={v}
            type="button"
            aria-pressed={v === value}
            onClick={() => onChange(v)}
            className={cn(
              'whitespace-nowrap rounded px-2.5 text-sm text-fg hover:bg-muted',
              v === value && 'bg-primary/10 font-medium text-primary hover:bg-primary/10',
            )}
          >
            {names[v]}
          </button>
        ))}
      </div>
    </div>
  );
}

/**
 * The trends page's controls. Every change goes into the URL (so a view can be shared and the
 * back button works); the server renders the new numbers while the old ones stay on screen.
 */
export function TrendsControls({
  filters,
  options,
}: {
  filters: TrendsFilters;
  options: { definitionKeys: string[]; countries: string[]; docTypes: string[] };
}) {
  const router = useRouter();
  const [pending, startTransition] = React.useTransition();
  const [custom, setCustom] = React.useState({ from: filters.from, to: filters.to });
  const [rangeError, setRangeError] = React.useState<string | null>(null);
  // The days' format is checked once the range is applied, not at every key.
  const [checked, setChecked] = React.useState(false);
  const [showCustom, setShowCustom] = React.useState(filters.range === 'custom');

  function go(next: Partial<TrendsFilters>) {
    const merged = { ...filters, ...next };
    startTransition(() => router.push(trendsHref(merged), { scroll: false }));
  }

  function pickRange(r: RangeKey) {
    if (r === 'custom') {
      setShowCustom(true);
      return;
    }
    setShowCustom(false);
    // A preset range gets its natural granularity unless one was picked for it.
    go({ range: r, granularity: undefined });
  }

  const select = (
    id: keyof Pick<TrendsFilters, 'definitionKey' | 'country' | 'docType'>,
    label: string,
    values: string[],
    all: string,
  ) => {
    const current = filters[id];
    const list = current && !values.includes(current) ? [current, ...values] : values;
    return (
      <div className="flex flex-col gap-1">
        <Label htmlFor={`t-${id}`}>{label}</Label>
        <Select
          id={`t-${id}`}
          value={current ?? ''}
          onChange={(e) => go({ [id]: e.target.value || undefined })}
          className="w-40"
        >
          <option value="">{all}</option>
          {list.map((v) => (
            <option key={v} value={v}>
              {id === 'country' ? countryLabel(v) : v}
            </option>
          ))}
        </Select>
      </div>
    );
  };

  const filtered = Boolean(filters.definitionKey || filters.country || filters.docType);
  return (
    <form
      noValidate
      role="search"
      aria-label="Trends filters"
      aria-busy={pending}
      className="mb-5 flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        // The fields say what is missing here, not in a browser pop-up (the form has noValidate).
        setChecked(true);
        if (!custom.from || !custom.to) return setRangeError('Choose both a first and a last day.');
        // A day that is not one is said under its field, with the text kept (the server reads only real days).
        if (!isIsoDay(custom.from) || !isIsoDay(custom.to)) return setRangeError(null);
        setRangeError(null);
        go({ range: 'custom', from: custom.from, to: custom.to, granularity: undefined });
      }}
    >
      <Segmented
        label="Range"
        values={Object.keys(RANGE_LABELS) as RangeKey[]}
        names={RANGE_LABELS}
        value={showCustom ? 'custom' : filters.range}
        onChange={pickRange}
      />
      {showCustom ? (
        <div className="flex items-start gap-2">
          <div className="flex flex-col gap-1">
            <Label htmlFor="t-from">From</Label>
            <DateInput
              id="t-from"
              required
              value={custom.from ?? ''}
              onChange={(e) => setCustom({ ...custom, from: e.target.value.trim() })}
              hint="UTC"
              error={checked && custom.from && !isIsoDay(custom.from) ? dayFormatError(custom.from) : null}
            />
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor="t-to">To</Label>
            <DateInput
              id="t-to"
              required
              value={custom.to ?? ''}
              onChange={(e) => setCustom({ ...custom, to: e.target.value.trim() })}
              hint="UTC"
              error={checked && custom.to && !isIsoDay(custom.to) ? dayFormatError(custom.to) : null}
            />
          </div>
          <Button type="submit" variant="secondary" title={`At most ${MAX_RANGE_DAYS} days`} className="mt-6">
            Apply
          </Button>
          <FieldError messages={rangeError} />
        </div>
      ) : null}
      <Segmented
        label="Granularity"
        values={GRANULARITIES}
        names={GRANULARITY_LABELS}
        value={filters.granularity}
        onChange={(g) => go({ granularity: g })}
      />
      {select('definitionKey', 'Workflow', options.definitionKeys, 'All workflows')}
      {select('country', 'Issuing country', options.countries, 'All countries')}
      {select('docType', 'Document type', options.docTypes, 'All types')}
      {filtered ? (
        <Button
          variant="ghost"
          onClick={() => go({ definitionKey: undefined, country: undefined, docType: undefined })}
        >
          <RotateCcw className="h-4 w-4" aria-hidden /> Clear filters
        </Button>
      ) : null}
      <span role="status" aria-live="polite" className="flex h-9 items-center text-sm text-muted-fg">
        {pending ? (
          <>
            <Loader2 className="mr-1.5 h-4 w-4 animate-spin" aria-hidden /> Updating…
          </>
        ) : null}
      </span>
    </form>
  );
}
