/**
 * The browser side of `npm run bench:rings`'s drawing measurement: loads a ring's graph data from
 * the benchmark's server (`/ring.json?mode=kept|naive`) and draws it with the page's own code
 * (components/rings/ring-graph-draw.ts, bundled with Cytoscape by esbuild). `window.__drawn`
 * holds the time from navigation to the first frame painted after the layout's `layoutstop`
 * (Cytoscape draws on the next animation frame; the second frame callback runs after that paint).
 */
import cytoscape from 'cytoscape';
import { drawRingGraph, type GraphAttribute, type GraphMember } from '@/components/rings/ring-graph-draw';

declare global {
  interface Window {
    __drawn?: { ms: number; members: number; phases: Record<string, number> } | { error: string };
  }
}

const mode = new URLSearchParams(location.search).get('mode') ?? 'kept';
// Where the time goes, each from navigation: the script running, the data parsed, the layout done.
const phases: Record<string, number> = { script: performance.now() };
fetch(`/ring.json?mode=${encodeURIComponent(mode)}`)
  .then((r) => r.json() as Promise<{ members: GraphMember[]; attributes: GraphAttribute[] }>)
  .then((data) => {
    phases.data = performance.now();
    // Cytoscape's construction (elements and style) apart from the layout that follows it.
    const timed: typeof cytoscape = ((opts: cytoscape.CytoscapeOptions) => {
      const cy = cytoscape(opts);
      phases.elements = performance.now();
      return cy;
    }) as typeof cytoscape;
    drawRingGraph(timed, document.getElementById('graph')!, { ...data, showWeak: false, expanded: {} }, (cy) => {
      phases.layout = performance.now();
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          window.__drawn = { ms: performance.now(), members: cy.nodes('[type="member"]').length, phases };
        }),
      );
    });
  })
  .catch((e: unknown) => {
    window.__drawn = { error: String(e) };
  });
