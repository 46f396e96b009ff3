import { CheckCircle2, CircleHelp, MinusCircle, TriangleAlert, XCircle } from 'lucide-react';
import * as React from 'react';
import { cn } from '@/lib/utils';

/** A titled block of the detail page, reachable from its table of contents by `id`. */
export function Section({
  id,
  title,
  description,
  actions,
  children,
  className,
}: {
  id: string;
  title: string;
  description?: React.ReactNode;
  actions?: React.ReactNode;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className={cn('scroll-mt-20 rounded-lg border border-border bg-card shadow-sm', className)}
    >
      <header className="flex flex-wrap items-start justify-between gap-2 border-b border-border px-4 py-3">
        <div>
          <h2 id={`${id}-title`} className="text-sm font-semibold">
            {title}
          </h2>
          {description ? <p className="mt-0.5 text-xs text-muted-fg">{description}</p> : null}
        </div>
        {actions}
      </header>
      <div className="p-4">{children}</div>
    </section>
  );
}

const ICONS = {
  PASSED: [CheckCircle2, 'text-ok'],
  WARNING: [TriangleAlert, 'text-warn'],
  REJECTED: [XCircle, 'text-reject'],
  NOT_EXECUTED: [MinusCircle, 'text-neutral'],
} as const;

/** An icon for a decision type (unknown types get a question mark), hidden from screen readers. */
export function DecisionIcon({ type, className }: { type: string | null | undefined; className?: string }) {
  const [Icon, color] = (type && ICONS[type as keyof typeof ICONS]) || [CircleHelp, 'text-primary'];
  return <Icon aria-hidden className={cn('h-4 w-4 shrink-0', color, className)} />;
}

export function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-fg">{label}</dt>
      <dd className="mt-0.5 break-words text-sm">{children}</dd>
    </div>
  );
}
