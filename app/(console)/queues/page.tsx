import type { Metadata } from 'next';
import { QueuesView } from '@/components/cases/queues-view';
import { PageHeader } from '@/components/shell/page-header';
import { requireRole } from '@/lib/auth/guards';
import { getQueuesPage, getRematchProgress } from '@/lib/cases/queries';

export const metadata: Metadata = { title: 'Queues' };

export default async function QueuesPage() {
  const user = await requireRole('manager');
  const [data, rematch] = await Promise.all([getQueuesPage(user.id), getRematchProgress()]);
  return (
    <>
      <PageHeader
        title="Queues"
        description="Backlog, waiting time and outcomes of case work. Every number opens the executions behind it."
      />
      <QueuesView data={data} rematch={rematch} />
    </>
  );
}
