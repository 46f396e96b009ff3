import type { Metadata } from 'next';
import { DecisionsChart, RiskDistributionChart, RiskOverTimeChart } from '@/components/trends/decision-charts';
import { FraudChart, FraudReasonsChart } from '@/components/trends/fraud-charts';
import { BreakdownChart, LabelsChart, RulesChart } from '@/components/trends/label-charts';
import { FeedbackMatrix, RulePrecision, SpikeAlerts } from '@/components/trends/trends-tables';
import { PageHeader } from '@/components/shell/page-header';
import { KpiCards } from '@/components/trends/kpi-cards';
import { TrendsControls } from '@/components/trends/trends-controls';
import { requireRole } from '@/lib/auth/guards';
import { getTrendsData } from '@/lib/trends/queries';
import { resolveTrendsFilters } from '@/lib/trends/shared';
import { formatDate } from '@/lib/format';
import { LocalTime } from '@/components/time/local-time';

export const metadata: Metadata = { title: 'Trends' };

export default async function TrendsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireRole('manager');
  const filters = resolveTrendsFilters(await searchParams);
  const data = await getTrendsData(filters);
  return (
    <>
      <PageHeader
        title="Risk trends"
        description={
          <>
            {formatDate(filters.from)} – {formatDate(filters.to)} (UTC), by {filters.granularity}.{' '}
            <span data-testid="data-as-of">
              {data.asOf ? (
                <>
                  Data as of <LocalTime value={data.asOf} /> (<LocalTime value={data.asOf} shape="relative" />)
                </>
              ) : (
                'No data synced yet'
              )}
            </span>
          </>
        }
      />
      <TrendsControls filters={filters} options={data.options} />
      <KpiCards data={data} />
      <div className="mb-4">
        <SpikeAlerts data={data} />
      </div>
      <div className="grid gap-4 xl:grid-cols-2">
        <DecisionsChart data={data} />
        <RiskDistributionChart data={data} />
        <RiskOverTimeChart data={data} />
        <LabelsChart data={data} />
        <FraudChart data={data} />
        <FraudReasonsChart data={data} />
        <FeedbackMatrix data={data} />
        <RulePrecision data={data} />
        <RulesChart data={data} />
        <BreakdownChart data={data} by="country" />
        <BreakdownChart data={data} by="docType" />
      </div>
    </>
  );
}
