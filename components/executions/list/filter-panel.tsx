'use client';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Label, Select } from '@/components/ui/input';
import type { ListFacets } from '@/lib/executions/facets';
import type { CaseWorkOptions } from '@/components/cases/types';
import {
  CASE_STATE_FILTERS,
  CASE_STATE_LABELS,
  clearedFilters,
  DUE_FILTER_LABELS,
  DUE_FILTERS,
  type CaseStateFilter,
  type DueFilter,
  FEEDBACK_FILTER_LABELS,
  FEEDBACK_FILTERS,
  type FeedbackFilter,
  type ListParams,
} from '@/lib/executions/list-params';
import { CountryField, countryOfForm } from './country-field';
import { CheckGroup, DayRange, Range, SuggestField } from './filter-fields';
import { useListNav } from './list-nav';
import { dayFormatError, isIsoDay } from '@/lib/utils';

const str = (fd: FormData, k: string) => {
  const v = String(fd.get(k) ?? '').trim();
  return v === '' ? undefined : v;
};
const int = (fd: FormData, k: string) => {
  const v = str(fd, k);
  const n = v === undefined ? NaN : Number(v);
  return Number.isInteger(n) ? n : undefined;
};

const DAY_FIELDS = ['createdFrom', 'createdTo', 'completedFrom', 'completedTo'] as const;

/** Every filter of the list in one form; applying it starts again at the first page. */
export function FilterPanel({
  facets,
  caseWork,
  onDone,
}: {
  facets: ListFacets;
  caseWork: CaseWorkOptions;
  onDone(): void;
}) {
  const { params, go } = useListNav();
  const firstCap = params.cap[0] ?? '';
  const [capability, setCapability] = React.useState(firstCap.split(':')[0] ?? '');
  const [dayErrors, setDayErrors] = React.useState<Record<string, string>>({});
  const capOptions = facets.capabilities.find((c) => c.capability === capability)?.options ?? [];

  function apply(fd: FormData) {
    // A day that is not one stays in its field with its message; nothing is applied.
    const bad = Object.fromEntries(
      DAY_FIELDS.flatMap((k) => {
        const v = str(fd, k);
        return v && !isIsoDay(v) ? [[k, dayFormatError(v)]] : [];
      }),
    );
    setDayErrors(bad);
    const firstBad = DAY_FIELDS.find((k) => bad[k]);
    if (firstBad) return document.getElementById(`f-${firstBad}`)?.focus();
    const country = countryOfForm(fd);
    // A name that is no country stays in the field with its message; nothing is applied.
    if (country === null) return document.getElementById('f-country')?.focus();
    const outcome = str(fd, 'capOutcome');
    const cap =
      outcome && capability && outcome.startsWith(`${capability}:`)
        ? [outcome, ...params.cap.slice(1)]
        : params.cap.slice(1);
    const change: Partial<ListParams> = {
      decision: fd.getAll('decision').map(String),
      status: fd.getAll('status').map(String),
      riskMin: int(fd, 'riskMin'),
      riskMax: int(fd, 'riskMax'),
      createdFrom: str(fd, 'createdFrom'),
      createdTo: str(fd, 'createdTo'),
      completedFrom: str(fd, 'completedFrom'),
      completedTo: str(fd, 'completedTo'),
      definition: str(fd, 'definition'),
      country: country ?? undefined,
      docType: str(fd, 'docType'),
      criteria: str(fd, 'criteria'),
      feedback: fd.getAll('feedback').map(String) as FeedbackFilter[],
      cap,
      caseState: fd.getAll('caseState').map(String) as CaseStateFilter[],
      queue: fd.getAll('queue').map(String),
      assignee: str(fd, 'assignee'),
      due: str(fd, 'due') as DueFilter | undefined,
    };
    go(change);
    onDone();
  }

  return (
    <form
      aria-label="Filters"
      className="grid gap-x-6 gap-y-4 rounded-lg border border-border bg-card p-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4"
      onSubmit={(e) => {
        e.preventDefault();
        apply(new FormData(e.currentTarget));
      }}
    >
      <CheckGroup
        legend="Decision"
        name="decision"
        options={facets.decisions.map((d) => ({ value: d, label: d }))}
        selected={params.decision}
      />
      <CheckGroup
        legend="Status"
        name="status"
        options={facets.statuses.map((d) => ({ value: d, label: d }))}
        selected={params.status}
      />
      <CheckGroup
        legend="Feedback"
        name="feedback"
        options={FEEDBACK_FILTERS.map((f) => ({ value: f, label: FEEDBACK_FILTER_LABELS[f] }))}
        selected={params.feedback}
      />
      <CheckGroup
        legend="Case"
        name="caseState"
        options={CASE_STATE_FILTERS.map((f) => ({ value: f, label: CASE_STATE_LABELS[f] }))}
        selected={params.caseState}
      />
      <CheckGroup
        legend="Queue"
        name="queue"
        options={caseWork.queues.map((q) => ({ value: q.id, label: q.name }))}
        selected={params.queue}
      />
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="f-assignee">Assignee</Label>
        <Select id="f-assignee" name="assignee" defaultValue={params.assignee ?? ''}>
          <option value="">Anyone or no one</option>
          <option value="me">Me</option>
          <option value="none">Unassigned</option>
          {caseWork.people.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </Select>
        <Label htmlFor="f-due" className="mt-1">
          Due
        </Label>
        <Select id="f-due" name="due" defaultValue={params.due ?? ''}>
          <option value="">Any time</option>
          {DUE_FILTERS.map((d) => (
            <option key={d} value={d}>
              {DUE_FILTER_LABELS[d]}
            </option>
          ))}
        </Select>
      </div>
      <Range
        legend="Risk score"
        from="riskMin"
        to="riskMax"
        type="number"
        min={-1}
        max={100}
        fromValue={params.riskMin}
        toValue={params.riskMax}
      />
      <DayRange
        legend="Created (UTC)"
        from="createdFrom"
        to="createdTo"
        fromValue={params.createdFrom}
        toValue={params.createdTo}
        errors={dayErrors}
      />
      <DayRange
        legend="Completed (UTC)"
        from="completedFrom"
        to="completedTo"
        fromValue={params.completedFrom}
        toValue={params.completedTo}
        errors={dayErrors}
      />
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="f-cap">Capability</Label>
        <Select id="f-cap" value={capability} onChange={(e) => setCapability(e.target.value)}>
          <option value="">Any capability</option>
          {facets.capabilities.map((c) => (
            <option key={c.capability} value={c.capability}>
              {c.title}
            </option>
          ))}
        </Select>
        <Label htmlFor="f-cap-outcome" className="mt-1">
          Decision or label
        </Label>
        <Select
          id="f-cap-outcome"
          name="capOutcome"
          key={capability}
          defaultValue={firstCap.startsWith(`${capability}:`) ? firstCap : ''}
          disabled={!capability}
        >
          <option value="">{capability ? 'Choose…' : 'Choose a capability first'}</option>
          {capOptions.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </Select>
      </div>
      <div className="flex flex-col gap-1.5">
        <SuggestField
          id="f-definition"
          name="definition"
          label="Workflow definition"
          suggestions={facets.definitions}
          defaultValue={params.definition}
          maxLength={80}
        />
        <SuggestField
          id="f-criteria"
          name="criteria"
          label="Reporting criteria"
          labelClassName="mt-1"
          suggestions={facets.criteria}
          defaultValue={params.criteria}
          maxLength={255}
        />
      </div>
      <div className="flex flex-col gap-1.5">
        <CountryField present={facets.countries} initial={params.country} />
        <Label htmlFor="f-doctype" className="mt-1">
          Document type
        </Label>
        <Select id="f-doctype" name="docType" defaultValue={params.docType ?? ''}>
          <option value="">Any type</option>
          {facets.docTypes.map((d) => (
            <option key={d} value={d}>
              {d}
            </option>
          ))}
        </Select>
      </div>
      <div className="flex items-end gap-2 border-t border-border pt-3 sm:col-span-2 lg:col-span-3 xl:col-span-4">
        <Button type="submit">Apply filters</Button>
        <Button
          type="button"
          variant="ghost"
          onClick={() => {
            go(clearedFilters());
            onDone();
          }}
        >
          Clear all filters
        </Button>
      </div>
    </form>
  );
}
