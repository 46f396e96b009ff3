'use client';
import { X } from 'lucide-react';
import { FEEDBACK_FILTER_LABELS, type ListParams } from '@/lib/executions/list-params';
import { useListNav } from './list-nav';

interface Chip {
  key: string;
  label: string;
  remove: Partial<ListParams>;
}

function chipsOf(p: ListParams): Chip[] {
  const out: Chip[] = [];
  const without = <T,>(list: T[], v: T) => list.filter((x) => x !== v);
  for (const v of p.decision)
    out.push({ key: `d-${v}`, label: `Decision: ${v}`, remove: { decision: without(p.decision, v) } });
  for (const v of p.status)
    out.push({ key: `s-${v}`, label: `Status: ${v}`, remove: { status: without(p.status, v) } });
  if (p.riskMin !== undefined || p.riskMax !== undefined)
    out.push({
      key: 'risk',
      label: `Risk ${p.riskMin ?? -1}–${p.riskMax ?? 100}`,
      remove: { riskMin: undefined, riskMax: undefined },
    });
  if (p.createdFrom || p.createdTo)
    out.push({
      key: 'created',
      label: `Created ${p.createdFrom ?? '…'} – ${p.createdTo ?? '…'}`,
      remove: { createdFrom: undefined, createdTo: undefined },
    });
  if (p.completedFrom || p.completedTo)
    out.push({
      key: 'completed',
      label: `Completed ${p.completedFrom ?? '…'} – ${p.completedTo ?? '…'}`,
      remove: { completedFrom: undefined, completedTo: undefined },
    });
  if (p.definition) out.push({ key: 'def', label: `Workflow: ${p.definition}`, remove: { definition: undefined } });
  for (const v of p.cap) {
    const [cap, a, b] = v.split(':');
    out.push({
      key: `c-${v}`,
      label: `${cap}: ${a === 'label' ? `label ${b}` : a}`,
      remove: { cap: without(p.cap, v) },
    });
  }
  if (p.country) out.push({ key: 'country', label: `Country: ${p.country}`, remove: { country: undefined } });
  if (p.docType) out.push({ key: 'doc', label: `Document: ${p.docType}`, remove: { docType: undefined } });
  for (const v of p.feedback)
    out.push({
      key: `f-${v}`,
      label: `Feedback: ${FEEDBACK_FILTER_LABELS[v]}`,
      remove: { feedback: without(p.feedback, v) },
    });
  if (p.criteria) out.push({ key: 'crit', label: `Criteria: ${p.criteria}`, remove: { criteria: undefined } });
  if (p.account) out.push({ key: 'acc', label: `Account ${p.account.slice(0, 8)}…`, remove: { account: undefined } });
  if (p.q) out.push({ key: 'q', label: `Id ${p.q.slice(0, 8)}…`, remove: { q: undefined } });
  return out;
}

/** The active filters as removable chips, so the state of the list is always visible. */
export function ActiveFilters() {
  const { params, go } = useListNav();
  const chips = chipsOf(params);
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
