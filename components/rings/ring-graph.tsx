'use client';
import type { Core } from 'cytoscape';
import { useRouter } from 'next/navigation';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { expandRingAttributeAction } from '@/lib/actions/rings';
import { LINK_KIND_LABELS } from '@/lib/rings/kinds';
import type { AttributeHolders } from '@/lib/rings/queries';
import { drawRingGraph, GRAPH_COLOURS as COLOURS, type GraphAttribute, type GraphMember } from './ring-graph-draw';

/**
 * The ring as a graph (Cytoscape.js): executions and the shared attributes that join them.
 * Attributes are named by kind only; weak links (values shared far beyond the ring) are drawn on
 * request. The table below carries the same members for keyboard and screen-reader use.
 */
export function RingGraph({
  ringId,
  members,
  attributes,
}: {
  ringId: number;
  members: GraphMember[];
  attributes: GraphAttribute[];
}) {
  const router = useRouter();
  const ref = React.useRef<HTMLDivElement>(null);
  const [showWeak, setShowWeak] = React.useState(false);
  // `draws` counts finished layouts: a redraw (weak links shown, an attribute expanded) is a new one,
  // so whoever waits for the graph (the browser test, the benchmark) can wait for that draw.
  const [drawn, setDrawn] = React.useState<{ members: string[]; outside: string[]; ms: number; draws: number } | null>(
    null,
  );
  const [error, setError] = React.useState<string | null>(null);
  // Attributes expanded on request: their holders outside the ring, loaded through a guarded action.
  const [expanded, setExpanded] = React.useState<Record<string, AttributeHolders>>({});
  const [status, setStatus] = React.useState('');
  const weakCount = attributes.filter((a) => a.weak).length;

  const expand = React.useCallback(
    async (attributeId: string) => {
      if (expanded[attributeId]) return;
      const a = attributes.find((x) => x.id === attributeId);
      if (a?.weak) setShowWeak(true);
      setStatus('Loading the other executions that share this value…');
      const r = await expandRingAttributeAction({ ringId, attributeId });
      if (!r.ok) {
        setStatus(r.error);
        return;
      }
      setExpanded((x) => ({ ...x, [attributeId]: r.data }));
      const outside = r.data.holders.length;
      setStatus(
        outside
          ? `${outside} other execution${outside === 1 ? '' : 's'} outside the ring share this value (of ${r.data.executions} in all).`
          : 'No execution outside the ring shares this value.',
      );
    },
    [attributes, expanded, ringId],
  );

  React.useEffect(() => {
    let cy: Core | undefined;
    let cancelled = false;
    const t0 = performance.now();
    import('cytoscape')
      .then(({ default: cytoscape }) => {
        if (cancelled || !ref.current) return;
        // Drawn means the layout has placed every node (what the browser test and the benchmark wait for).
        cy = drawRingGraph(cytoscape, ref.current, { members, attributes, showWeak, expanded }, (c) => {
          const idsOf = (type: string) =>
            c
              .nodes(`[type="${type}"]`)
              .map((n) => n.data('memberId') as string)
              .sort();
          setDrawn((d) => ({
            members: idsOf('member'),
            outside: idsOf('outside'),
            ms: Math.round(performance.now() - t0),
            draws: (d?.draws ?? 0) + 1,
          }));
        });
        cy.on('tap', 'node[type="member"], node[type="outside"]', (e) => {
          router.push(`/executions/${e.target.data('memberId') as string}`);
        });
        cy.on('tap', 'node[type="attribute"], node[type="weak"]', (e) => {
          void expand((e.target.id() as string).slice(2));
        });
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : 'The graph could not be drawn.'));
    return () => {
      cancelled = true;
      cy?.destroy();
    };
  }, [members, attributes, showWeak, expanded, expand, router]);

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-3 text-xs text-muted-fg" aria-hidden>
        {(
          [
            ['Labelled FRAUD', COLOURS.fraud],
            ['Rejected', COLOURS.REJECTED],
            ['Warning', COLOURS.WARNING],
            ['Passed', COLOURS.PASSED],
            ['Other', COLOURS.other],
          ] as const
        ).map(([label, c]) => (
          <span key={label} className="inline-flex items-center gap-1">
            <span className="inline-block h-2.5 w-2.5 rounded-full" style={{ background: c }} /> {label}
          </span>
        ))}
        <span className="inline-flex items-center gap-1">
          <span className="inline-block h-2.5 w-2.5 rotate-45 bg-primary" /> Shared attribute
        </span>
      </div>
      {/* Outside the legend, which is hidden from screen readers: the toggle is for everyone. */}
      {weakCount ? (
        <div>
          <Button size="sm" variant="secondary" onClick={() => setShowWeak((v) => !v)}>
            {showWeak ? 'Hide weak links' : `Show ${weakCount} weak link${weakCount === 1 ? '' : 's'}`}
          </Button>
        </div>
      ) : null}
      <div
        ref={ref}
        role="img"
        aria-label={`Graph of ${members.length} executions and the attributes they share; the table below lists the same members.`}
        data-testid="ring-graph"
        data-drawn-members={drawn ? drawn.members.join(',') : undefined}
        data-drawn-outside={drawn ? drawn.outside.join(',') : undefined}
        data-draw-ms={drawn?.ms}
        data-draws={drawn?.draws}
        className="h-[28rem] w-full rounded-md border border-border bg-card"
      />
      {showWeak && weakCount ? (
        <div className="flex flex-wrap items-center gap-2 text-xs">
          <span className="text-muted-fg">Weak links (click a dashed node, or here, for who else shares it):</span>
          {attributes
            .filter((a) => a.weak)
            .map((a) => (
              <Button
                key={a.id}
                size="sm"
                variant="secondary"
                disabled={Boolean(expanded[a.id])}
                onClick={() => void expand(a.id)}
              >
                {`Expand ${LINK_KIND_LABELS[a.kind]} (${a.executions})`}
              </Button>
            ))}
        </div>
      ) : null}
      <p role="status" aria-live="polite" className="text-xs text-muted-fg" data-testid="ring-graph-status">
        {status}
      </p>
      {error ? <p className="text-sm text-danger">{error}</p> : null}
      {!drawn && !error ? <p className="text-xs text-muted-fg">Drawing the graph…</p> : null}
    </div>
  );
}
