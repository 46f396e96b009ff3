import type { Metadata } from 'next';
import { QualityView } from '@/components/qa/quality-view';
import { PageHeader } from '@/components/shell/page-header';
import { requireRole } from '@/lib/auth/guards';
import { listCaseReasons } from '@/lib/cases/queries';
import { getQualityPage } from '@/lib/qa/quality';
import { weekOf } from '@/lib/qa/week';

export const metadata: Metadata = { title: 'Quality' };

/** The weeks "Sample now" offers: this one (so far) and the five before it. */
function recentWeeks(now = new Date()) {
  return Array.from({ length: 6 }, (_, i) => {
    const value = weekOf(new Date(now.getTime() - i * 7 * 86_400_000));
    return {
      value,
      label: i === 0 ? `This week (${value}, so far)` : i === 1 ? `Last week (${value})` : `Week of ${value}`,
    };
  });
}

export default async function QualityPage() {
  const user = await requireRole('manager');
  const [data, reasons] = await Promise.all([getQualityPage(user.id), listCaseReasons()]);
  return (
    <>
      <PageHeader
        title="Quality"
        description="A sample of each analyst's resolved cases is re-reviewed blind by a colleague; disagreements are settled by a manager. Every number opens the reviews behind it."
      />
      <QualityView data={data} reasons={reasons} weeks={recentWeeks()} />
    </>
  );
}
