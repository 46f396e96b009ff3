import type { Metadata } from 'next';
import { NextQaButton } from '@/components/qa/next-qa-button';
import { QaReviewsCard } from '@/components/qa/qa-reviews-table';
import { PageHeader } from '@/components/shell/page-header';
import { requireRole } from '@/lib/auth/guards';
import { hasRole } from '@/lib/auth/roles';
import { listCaseReasons } from '@/lib/cases/queries';
import { getQaQueue } from '@/lib/qa/quality';

export const metadata: Metadata = { title: 'QA reviews' };

export default async function QaPage() {
  const user = await requireRole('analyst');
  const [queue, reasons] = await Promise.all([getQaQueue(user.id), listCaseReasons()]);
  const manages = hasRole(user.role, 'manager');
  return (
    <>
      <PageHeader
        title="QA reviews"
        description="A sample of resolved cases, re-reviewed blind by someone other than the first analyst. The first outcome shows once you have decided."
        actions={<NextQaButton />}
      />
      <div className="flex flex-col gap-4">
        {manages ? (
          <QaReviewsCard
            testId="qa-to-settle"
            title="Disagreements to settle"
            description="The second reviewer chose another outcome. Open one to pick the final outcome with a reason."
            rows={queue.disputed}
            reasons={reasons}
            caption="Disagreements waiting for a manager"
            empty="No disagreements to settle."
          />
        ) : null}
        <QaReviewsCard
          testId="qa-queue"
          title="Waiting and in review"
          description="Oldest first; yours at the top. Cases you resolved go to a colleague."
          rows={queue.pending}
          reasons={reasons}
          caption="QA reviews waiting or in review"
          empty="No QA reviews waiting. A manager samples resolved cases on the Quality page, or every Monday."
        />
      </div>
    </>
  );
}
