import type { Metadata } from 'next';
import { StaticTable, srOnlyHeader } from '@/components/data-table/static-table';
import { AddReasonForm, ReasonRow } from '@/components/cases/reasons-admin';
import { PageHeader } from '@/components/shell/page-header';
import { Card, CardContent, TitledCard } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { requireRole } from '@/lib/auth/guards';
import { listCaseReasonsForAdmin } from '@/lib/cases/queries';

export const metadata: Metadata = { title: 'Case reasons' };

export default async function CaseReasonsPage() {
  await requireRole('admin');
  const reasons = await listCaseReasonsForAdmin();
  const order = reasons.map((r) => r.code);
  return (
    <>
      <PageHeader
        title="Case reasons"
        description="The short list a case is resolved with, in the order the resolve form shows it. A retired reason leaves the form but stays on every resolution that gave it; renaming keeps its code. Every change is recorded in the audit log."
      />
      <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
        <Card className="self-start">
          {reasons.length ? (
            <StaticTable
              caption="Resolution reasons"
              rows={reasons}
              rowKey={(r) => `${r.code}:${r.label}:${r.outcomes.join()}`}
              renderRow={(r) => <ReasonRow reason={r} order={order} />}
              columns={[
                { header: 'Label' },
                { header: 'Explains' },
                { header: 'Used', headerClassName: 'text-right' },
                { header: 'State' },
                { header: srOnlyHeader('Actions') },
              ]}
            />
          ) : (
            <CardContent>
              <EmptyState title="No reasons">Add the first reason: resolving a case needs one.</EmptyState>
            </CardContent>
          )}
        </Card>
        <TitledCard title="Add a reason" className="self-start">
          <AddReasonForm />
        </TitledCard>
      </div>
    </>
  );
}
