'use client';
import dynamic from 'next/dynamic';
import { Skeleton } from '@/components/ui/skeleton';
import type { GraphAttribute, GraphMember } from './ring-graph-draw';

// The graph library loads with the page that draws it, not with the console's shared bundle.
const RingGraph = dynamic(() => import('./ring-graph').then((m) => m.RingGraph), {
  ssr: false,
  loading: () => <Skeleton className="h-[28rem] w-full" />,
});

export function RingGraphLoader(props: { ringId: number; members: GraphMember[]; attributes: GraphAttribute[] }) {
  return <RingGraph {...props} />;
}
