import { NUMERIC, StaticTable } from '@/components/data-table/static-table';
import Link from 'next/link';
import { cn } from '@/lib/utils';
import { Card, CardContent, CardHeader, CardTitle, TitledCard } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import type { ReasonView } from '@/lib/cases/queries';
import type { AgreementRow, QualityPage } from '@/lib/qa/quality';
import { formatNumber, formatPercent } from '@/lib/format';
import { qaListHref, type QaListParams } from '@/lib/qa/schema';
import { QaReviewsCard } from './qa-reviews-table';
import { QaSamplingControl, QaSettingsForm } from './qa-sampling';
import { QaTrendChart } from './qa-trend-chart';

/** A figure that opens the QA reviews it counts. */
function Figure({
  value,
  to,
  label,
  text,
  inText,
}: {
  value: number;
  to: QaListParams;
  label: string;
  text?: string;
  /** A link inside a sentence is underlined: colour alone does not tell it apart (axe link-in-text-block). */
  inText?: boolean;
}) {
  if (!value) return <span className="tabular-nums text-muted-fg">{text ?? '0'}</span>;
  return (
    <Link
      href={qaListHref(to)}
      aria-label={label}
      className={cn('tabular-nums text-primary underline-offset-2 hover:underline', inText && 'underline')}
    >
      {text ?? formatNumber(value)}
    </Link>
  );
}

function AgreementTable({ rows, by, caption }: { rows: AgreementRow[]; by: 'analyst' | 'queue'; caption: string }) {
  if (!rows.length) return <EmptyState title="Nothing sampled yet." />;
  const scopeOf = (r: AgreementRow): QaListParams =>
    by === 'analyst' ? { analyst: r.key } : { queue: r.key || undefined };
  return (
    <StaticTable
      caption={caption}
      rows={rows}
      rowKey={(r) => r.key || r.name}
      rowProps={(r) => ({ 'data-agreement': r.name })}
      columns={[
        { header: by === 'analyst' ? 'First analyst' : 'Queue', className: 'font-medium', cell: (r) => r.name },
        {
          header: 'Sampled',
          ...NUMERIC,
          cell: (r) => <Figure value={r.sampled} to={scopeOf(r)} label={`${r.name}: ${r.sampled} sampled`} />,
        },
        {
          header: 'Waiting',
          ...NUMERIC,
          cell: (r) => (
            <Figure
              value={r.pending}
              to={{ ...scopeOf(r), result: 'pending' }}
              label={`${r.name}: ${r.pending} waiting`}
            />
          ),
        },
        {
          header: 'Decided',
          ...NUMERIC,
          cell: (r) => (
            <Figure
              value={r.decided}
              to={{ ...scopeOf(r), result: 'decided' }}
              label={`${r.name}: ${r.decided} decided`}
            />
          ),
        },
        {
          header: 'Agreement',
          ...NUMERIC,
          cellProps: () => ({ 'data-testid': 'agreement-rate' }),
          cell: (r) => (
            <Figure
              value={r.decided}
              to={{ ...scopeOf(r), result: 'agreed' }}
              text={r.decided ? `${formatPercent(r.rate)} (${r.agreed} of ${r.decided})` : '—'}
              label={`${r.name}: agreement ${formatPercent(r.rate)}, ${r.agreed} of ${r.decided} agreed`}
            />
          ),
        },
        {
          header: 'To settle',
          ...NUMERIC,
          cell: (r) => (
            <Figure
              value={r.disputed}
              to={{ ...scopeOf(r), result: 'disputed' }}
              label={`${r.name}: ${r.disputed} to settle`}
            />
          ),
        },
        {
          header: 'Overturned',
          ...NUMERIC,
          cellProps: () => ({ 'data-testid': 'overturned' }),
          cell: (r) => (
            <Figure
              value={r.overturned}
              to={{ ...scopeOf(r), result: 'overturned' }}
              label={`${r.name}: ${r.overturned} overturned`}
            />
          ),
        },
      ]}
    />
  );
}

/**
 * The managers' quality page: the sampling rate and runs, agreement per analyst and per queue,
 * overturned outcomes with both reasons, and agreement over the weeks. Every number opens the
 * QA reviews behind it.
 */
export function QualityView({
  data,
  reasons,
  weeks,
}: {
  data: QualityPage;
  reasons: ReasonView[];
  weeks: Array<{ value: string; label: string }>;
}) {
  const t = data.total;
  const kpis: Array<{ title: string; value: number; to: QaListParams; text?: string }> = [
    { title: 'Sampled', value: t.sampled, to: {} },
    { title: 'Waiting for review', value: t.pending, to: { result: 'pending' } },
    {
      title: 'Agreement',
      value: t.decided,
      to: { result: 'agreed' },
      text: t.decided ? `${formatPercent(t.rate)} of ${formatNumber(t.decided)}` : '—',
    },
    { title: 'To settle', value: t.disputed, to: { result: 'disputed' } },
    { title: 'Overturned', value: t.overturned, to: { result: 'overturned' } },
  ];
  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-4 lg:grid-cols-2">
        <TitledCard title="Sampling rate">
          <QaSettingsForm settings={data.settings} />
        </TitledCard>
        <Card>
          <CardHeader>
            <CardTitle>Sample a week</CardTitle>
            <p className="text-xs text-muted-fg">
              The draw is fixed per week: sampling a week again adds only what the rate still asks for, never a case
              twice.
            </p>
          </CardHeader>
          <CardContent>
            <QaSamplingControl weeks={weeks} initial={data.runs[0] ?? null} />
          </CardContent>
        </Card>
      </div>
      <dl className="grid grid-cols-2 gap-4 md:grid-cols-5" data-testid="qa-kpis">
        {kpis.map((k) => (
          // The card is the <dt>/<dd> pair's own wrapper: a list item may only hold them directly.
          <Card key={k.title} className="p-4">
            <dt className="text-xs text-muted-fg">{k.title}</dt>
            <dd className="text-xl font-semibold" data-kpi={k.title}>
              <Figure value={k.value} to={k.to} text={k.text} label={`${k.title}: ${k.text ?? k.value}`} />
            </dd>
          </Card>
        ))}
      </dl>
      <Card>
        <CardHeader>
          <CardTitle>Agreement per analyst</CardTitle>
          <p className="text-xs text-muted-fg">
            Agreement: the QA reviewer chose the same outcome. Overturned: a manager settled a disagreement against the
            first outcome.
          </p>
        </CardHeader>
        <CardContent>
          <AgreementTable rows={data.byAnalyst} by="analyst" caption="Agreement per first analyst" />
        </CardContent>
      </Card>
      <TitledCard title="Agreement per queue">
        <AgreementTable rows={data.byQueue} by="queue" caption="Agreement per queue" />
      </TitledCard>
      <QaTrendChart points={data.trend} />
      <QaReviewsCard
        title="Overturned outcomes"
        description={
          // Nothing to count yet: "the newest 0 of 0" said nothing.
          t.overturned ? (
            <>
              The newest {Math.min(data.overturned.length, 20)} of{' '}
              <Figure
                value={t.overturned}
                to={{ result: 'overturned' }}
                label={`All ${t.overturned} overturned`}
                inText
              />
              , with both reasons and the settlement.
            </>
          ) : null
        }
        rows={data.overturned}
        reasons={reasons}
        caption="Overturned outcomes"
        empty="No outcome has been overturned."
      />
    </div>
  );
}
