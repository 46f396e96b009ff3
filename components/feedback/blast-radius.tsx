'use client';
import { TriangleAlert, Users } from 'lucide-react';
import Link from 'next/link';
import * as React from 'react';
import { Badge } from '@/components/ui/badge';
import type { BlastRadius } from '@/lib/feedback/queries';
import { formatNumber, shortId } from '@/lib/format';
import { cn } from '@/lib/utils';
import { LocalTime } from '@/components/time/local-time';

/**
 * Who else a FRAUD label touches: the service applies FRAUD to later transactions with the same
 * identity document (country, type, number, names, date of birth), so the analyst sees the
 * cached executions that share it before submitting. Links only; no personal data is shown.
 */
export function BlastRadiusView({
  blast,
  emphasis,
  scope = 'this execution',
  limit = 8,
}: {
  blast: BlastRadius & { documents?: number; withoutDocument?: number };
  emphasis: boolean;
  scope?: string;
  limit?: number;
}) {
  const [all, setAll] = React.useState(false);
  const shown = all ? blast.items : blast.items.slice(0, limit);
  const tone = emphasis && blast.total > 0 ? 'border-reject/50 bg-reject/5' : 'border-border bg-muted/40';
  return (
    <section aria-label="Same identity document" className={cn('rounded-md border p-3 text-sm', tone)}>
      <h3 className="flex items-center gap-1.5 font-medium">
        {emphasis && blast.total > 0 ? (
          <TriangleAlert aria-hidden className="h-4 w-4 text-reject" />
        ) : (
          <Users aria-hidden className="h-4 w-4 text-muted-fg" />
        )}
        Same identity document
      </h3>
      {!blast.documentKnown ? (
        <p className="mt-1 text-xs text-muted-fg">
          The cache holds no identity document for {scope} (none was extracted, or it was purged). The service may still
          match later transactions with it.
        </p>
      ) : blast.total === 0 ? (
        <p className="mt-1 text-xs text-muted-fg">
          No other execution in the cache shares the identity document of {scope}.
          {emphasis ? ' A Fraud label still follows the document to later transactions.' : ''}
        </p>
      ) : (
        <>
          <p className="mt-1 text-xs">
            <strong className="tabular-nums">{formatNumber(blast.total)}</strong> other cached execution
            {blast.total === 1 ? '' : 's'} share{blast.total === 1 ? 's' : ''} the identity document of {scope}
            {blast.documents && blast.documents > 1 ? <> ({formatNumber(blast.documents)} documents)</> : null}
            {blast.later ? (
              <>
                , <strong className="tabular-nums">{formatNumber(blast.later)}</strong> of them later
              </>
            ) : null}
            .{emphasis ? ' The service applies Fraud to later transactions with this document too.' : ''}
          </p>
          <ul className="mt-2 flex flex-col gap-1">
            {shown.map((i) => (
              <li key={i.id} className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-xs">
                <Link
                  href={`/executions/${i.id}`}
                  className="font-mono text-primary hover:underline"
                  title={`Open execution ${i.id}`}
                >
                  {shortId(i.id)}
                </Link>
                <LocalTime value={i.createdAt} shape="date" className="text-muted-fg" />
                <span className="text-muted-fg">{i.decisionType ?? i.status}</span>
                {i.later ? <Badge tone="warn">later</Badge> : null}
                {i.feedbackStatus ? (
                  <Badge
                    tone={i.feedbackStatus === 'FRAUD' ? 'reject' : i.feedbackStatus === 'NOT_FRAUD' ? 'ok' : 'neutral'}
                  >
                    {i.feedbackStatus}
                  </Badge>
                ) : null}
              </li>
            ))}
          </ul>
          {blast.items.length > limit ? (
            <button
              type="button"
              className="mt-1 text-xs text-primary hover:underline"
              onClick={() => setAll((v) => !v)}
              aria-expanded={all}
            >
              {all ? 'Show fewer' : `Show ${blast.items.length - limit} more`}
            </button>
          ) : null}
          {blast.total > blast.items.length ? (
            <p className="mt-1 text-xs text-muted-fg">
              and {formatNumber(blast.total - blast.items.length)} more not listed.
            </p>
          ) : null}
        </>
      )}
      {blast.withoutDocument ? (
        <p className="mt-1 text-xs text-muted-fg">
          {formatNumber(blast.withoutDocument)} of the selected have no identity document in the cache.
        </p>
      ) : null}
    </section>
  );
}
