import type { Core, ElementDefinition, LayoutOptions, StylesheetJson } from 'cytoscape';
import { LINK_KIND_LABELS, type LinkKind } from '@/lib/rings/kinds';
import type { AttributeHolders } from '@/lib/rings/queries';

/**
 * How a ring becomes a Cytoscape graph: its elements, style and layout. Shared by the page's
 * graph (ring-graph.tsx) and the benchmark's browser harness (scripts/bench/ring-graph-harness.ts),
 * so the benchmark times the code analysts run. Plain TypeScript, no React.
 */

export interface GraphMember {
  id: string;
  short: string;
  name: string | null;
  decisionType: string | null;
  feedbackStatus: string | null;
}
export interface GraphAttribute {
  id: string;
  kind: LinkKind;
  weak: boolean;
  executions: number;
  memberIds: string[];
}
export interface GraphInput {
  members: GraphMember[];
  attributes: GraphAttribute[];
  showWeak: boolean;
  /** Attributes expanded on request, with their holders outside the ring. */
  expanded: Record<string, AttributeHolders>;
}

/** Node colour: a confirmed FRAUD label first, then the service's decision. */
export const GRAPH_COLOURS = {
  fraud: '#7f1d1d',
  REJECTED: '#dc2626',
  WARNING: '#d97706',
  PASSED: '#16a34a',
  other: '#6b7280',
};
function colourOf(m: { decisionType: string | null; feedbackStatus: string | null }) {
  if (m.feedbackStatus === 'FRAUD') return GRAPH_COLOURS.fraud;
  return GRAPH_COLOURS[(m.decisionType ?? 'other') as keyof typeof GRAPH_COLOURS] ?? GRAPH_COLOURS.other;
}

export function graphElements({ members, attributes, showWeak, expanded }: GraphInput): ElementDefinition[] {
  const ids = new Set(members.map((m) => m.id));
  const els: ElementDefinition[] = members.map((m) => ({
    data: { id: `e:${m.id}`, label: m.short, type: 'member', colour: colourOf(m), memberId: m.id },
  }));
  const outside = new Set<string>();
  for (const a of attributes) {
    if (a.weak && !showWeak) continue;
    els.push({
      data: {
        id: `a:${a.id}`,
        label: a.weak ? `${LINK_KIND_LABELS[a.kind]} (${a.executions})` : LINK_KIND_LABELS[a.kind],
        type: a.weak ? 'weak' : 'attribute',
      },
    });
    for (const id of a.memberIds)
      if (ids.has(id)) els.push({ data: { id: `l:${a.id}:${id}`, source: `e:${id}`, target: `a:${a.id}` } });
    for (const h of expanded[a.id]?.holders ?? []) {
      // One node per outside execution, even when two expanded values share it.
      if (!outside.has(h.id)) {
        outside.add(h.id);
        els.push({
          data: { id: `x:${h.id}`, label: h.id.slice(0, 8), type: 'outside', colour: colourOf(h), memberId: h.id },
        });
      }
      els.push({ data: { id: `l:${a.id}:${h.id}`, source: `x:${h.id}`, target: `a:${a.id}` } });
    }
  }
  return els;
}

// A label is skipped while it would be drawn under 6 px (a large ring fitted to the box): text
// nobody can read costs much of a big ring's first paint; zooming in brings it back.
const STYLE: StylesheetJson = [
  { selector: 'node', style: { 'min-zoomed-font-size': 6 } },
  {
    selector: 'node[type="member"]',
    style: { 'background-color': 'data(colour)', label: 'data(label)', 'font-size': 8, width: 14, height: 14 },
  },
  {
    selector: 'node[type="attribute"]',
    style: {
      shape: 'diamond',
      'background-color': '#2563eb',
      label: 'data(label)',
      'font-size': 7,
      width: 10,
      height: 10,
    },
  },
  {
    selector: 'node[type="weak"]',
    style: {
      shape: 'diamond',
      'background-color': '#ffffff',
      'border-width': 1,
      'border-style': 'dashed',
      'border-color': '#6b7280',
      label: 'data(label)',
      'font-size': 7,
    },
  },
  {
    selector: 'node[type="outside"]',
    style: {
      'background-color': 'data(colour)',
      'background-opacity': 0.35,
      'border-width': 1,
      'border-color': 'data(colour)',
      label: 'data(label)',
      'font-size': 7,
      width: 10,
      height: 10,
    },
  },
  { selector: 'edge', style: { width: 1, 'line-color': '#cbd5e1' } },
];

/** A force-directed layout reads best; past a few hundred elements it costs seconds, so big rings go concentric. */
const CONCENTRIC_FROM = 300;
function layoutFor(elements: number): LayoutOptions {
  return elements > CONCENTRIC_FROM
    ? { name: 'concentric', animate: false }
    : { name: 'cose', animate: false, numIter: 400 };
}

/** Draws the ring into `container`; `onDrawn` runs once the layout has placed every node. */
export function drawRingGraph(
  cytoscape: (opts: import('cytoscape').CytoscapeOptions) => Core,
  container: HTMLElement,
  input: GraphInput,
  onDrawn?: (cy: Core) => void,
): Core {
  const elements = graphElements(input);
  // With a container Cytoscape first runs a grid layout over every element. The force-directed
  // layout of a small ring starts from those positions; a large ring's concentric layout does not
  // need them, so there the grid is skipped (`null`), a good part of a 500-member ring's draw.
  const concentric = elements.length > CONCENTRIC_FROM;
  const cy = cytoscape({
    container,
    elements,
    style: STYLE,
    minZoom: 0.1,
    maxZoom: 4,
    ...(concentric ? { layout: { name: 'null' } } : {}),
  });
  const layout = cy.layout(layoutFor(elements.length));
  layout.one('layoutstop', () => onDrawn?.(cy));
  layout.run();
  return cy;
}
