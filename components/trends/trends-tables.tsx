'use client';
import { NUMERIC, StaticTable } from '@/components/data-table/static-table';
import * as React from 'react';
import { Badge } from '@/components/ui/badge';
import type { ListFilters } from '@/lib/trends/list-links';
import { decisionFilter, sortDecisions, SPIKE_RULE, trendsListHref, type TrendsData } from '@/lib/trends/shared';
import { formatDate, formatNumber, formatPercent } from '@/lib/format';
import { cn } from '@/lib/utils';
import { cell, ChartCard, decisionName, type ChartTable } from './chart-kit';

type Props = { data: TrendsData };

const FEEDBACK_COLUMNS = ['FRAUD', 'NOT_FRAUD', ''];
const feedbackName = (f: string) => (f === '' ? 'No feedback' : f);
/** The list's feedback filter for a rollup feedback value ('' is none). */
const feedbackFilter = (f: string): ListFilters | null =>
  f === '' ? { feedback: 'none' } : f === 'FRAUD' || f === 'NOT_FRAUD' ? { feedback: f } : null;

function Num({ n, href, className, label }: { n: number; href: string | null; className?: string; label?: string }) {
  const text = formatNumber(n);
  // Underlined, not told apart by colour alone: some of these figures sit in running text (axe link-in-text-block).
  return href && n ? (
    <a href={href} className={cn('text-primary underline underline-offset-2', className)} aria-label={label}>
      {text}
    </a>
  ) : (
    <span className={cn(!n && 'text-muted-fg', className)}>{text}</span>
  );
}

/**
 * The service's decision against analysts' feedback: missed fraud (PASSED then FRAUD) and
 * false rejects (REJECTED then NOT_FRAUD) stand out.
 */
export function FeedbackMatrix({ data }: Props) {
  const f = data.filters;
  const whole = { from: f.from, to: f.to };
  const count = (d: string, fb: string) => data.matrix.find((m) => m.decision === d && m.feedback === fb)?.n ?? 0;
  const decisions = sortDecisions(['PASSED', 'WARNING', 'REJECTED', ...data.matrix.map((m) => m.decision)]);
  const feedbacks = [
    ...FEEDBACK_COLUMNS,
    ...new Set(data.matrix.map((m) => m.feedback).filter((x) => !FEEDBACK_COLUMNS.includes(x))),
  ];
  const link = (d: string, fb: string | null) => {
    const df = decisionFilter(d);
    const ff = fb === null ? {} : feedbackFilter(fb);
    return df && ff ? trendsListHref(f, whole, { ...df, ...ff }) : null;
  };
  const rowTotal = (d: string) => feedbacks.reduce((s, fb) => s + count(d, fb), 0);
  const fraud = decisions.reduce((s, d) => s + count(d, 'FRAUD'), 0);
  const missed = count('PASSED', 'FRAUD');
  const rejectedReviewed = count('REJECTED', 'FRAUD') + count('REJECTED', 'NOT_FRAUD');
  const falseRejects = count('REJECTED', 'NOT_FRAUD');
  const table: ChartTable = {
    caption: 'Decision against analyst feedback',
    columns: ['Decision', ...feedbacks.map(feedbackName), 'Total'],
    rows: decisions.map((d) => [
      cell(decisionName(d)),
      ...feedbacks.map((fb) => cell(count(d, fb), link(d, fb))),
      cell(rowTotal(d), link(d, null)),
    ]),
  };
  const flag = (d: string, fb: string) =>
    d === 'PASSED' && fb === 'FRAUD' ? 'missed' : d === 'REJECTED' && fb === 'NOT_FRAUD' ? 'false' : null;
  return (
    <ChartCard
      id="decision-feedback"
      title="Decision against feedback"
      description="What the service decided, against what analysts found."
      table={table}
      tableOnly
    >
      <div className="mb-3 grid gap-2 sm:grid-cols-2">
        <p className="rounded-md border border-reject/40 bg-reject/5 px-3 py-2 text-sm">
          <span className="font-semibold">Missed fraud: </span>
          <Num
            n={missed}
            href={link('PASSED', 'FRAUD')}
            label={`Missed fraud: ${missed} executions passed and then confirmed FRAUD`}
          />{' '}
          passed, then confirmed FRAUD
          <span className="block text-xs text-muted-fg">
            {formatPercent(fraud ? missed / fraud : null)} of all confirmed fraud
          </span>
        </p>
        <p className="rounded-md border border-warn/40 bg-warn/5 px-3 py-2 text-sm">
          <span className="font-semibold">False rejects: </span>
          <Num
            n={falseRejects}
            href={link('REJECTED', 'NOT_FRAUD')}
            label={`False rejects: ${falseRejects} executions rejected and then confirmed NOT_FRAUD`}
          />{' '}
          rejected, then NOT_FRAUD
          <span className="block text-xs text-muted-fg">
            {formatPercent(rejectedReviewed ? falseRejects / rejectedReviewed : null)} of rejected executions with
            feedback
          </span>
        </p>
      </div>
      <StaticTable
        caption="Executions by the service's decision (rows) and analysts' feedback (columns)"
        rows={decisions}
        rowKey={(d) => d}
        columns={[
          {
            header: 'Decision',
            rowHeader: true,
            className: 'font-normal normal-case tracking-normal',
            cell: (d) => decisionName(d),
          },
          ...feedbacks.map((fb) => ({
            header: feedbackName(fb),
            headerClassName: 'text-right',
            // The two cells that matter most are tinted: fraud the service passed, and rejects analysts cleared.
            cellProps: (d: string) => {
              const kind = flag(d, fb);
              return {
                className: cn(
                  'text-right tabular-nums',
                  kind === 'missed' && 'bg-reject/10 font-semibold',
                  kind === 'false' && 'bg-warn/10 font-semibold',
                ),
              };
            },
            cell: (d: string) => {
              const kind = flag(d, fb);
              return (
                <>
                  <Num
                    n={count(d, fb)}
                    href={link(d, fb)}
                    label={`${decisionName(d)} with ${feedbackName(fb)}: ${count(d, fb)} executions`}
                  />
                  {kind ? (
                    <span className="sr-only">{kind === 'missed' ? ' (missed fraud)' : ' (false rejects)'}</span>
                  ) : null}
                </>
              );
            },
          })),
          { header: 'Total', ...NUMERIC, cell: (d) => <Num n={rowTotal(d)} href={link(d, null)} /> },
        ]}
      />
    </ChartCard>
  );
}

/** Per rule: how often it matched, and how often analysts agreed it was fraud. */
export function RulePrecision({ data }: Props) {
  const f = data.filters;
  const whole = { from: f.from, to: f.to };
  const href = (extra: ListFilters) => trendsListHref(f, whole, extra);
  const precision = (r: { fraud: number; notFraud: number }) =>
    r.fraud + r.notFraud ? r.fraud / (r.fraud + r.notFraud) : null;
  const table: ChartTable = {
    caption: 'Rule precision against feedback',
    columns: ['Rule', 'Rule id', 'Matched', 'FRAUD', 'NOT_FRAUD', 'Precision'],
    rows: data.rulePrecision.map((r) => [
      cell(r.name ?? r.ruleId),
      cell(r.ruleId),
      cell(r.matched, href({ rule: r.ruleId })),
      cell(r.fraud, r.fraud ? href({ rule: r.ruleId, feedback: 'FRAUD' }) : null),
      cell(r.notFraud, r.notFraud ? href({ rule: r.ruleId, feedback: 'NOT_FRAUD' }) : null),
      { ...cell(formatPercent(precision(r))), numeric: true },
    ]),
  };
  return (
    <ChartCard
      id="rule-precision"
      title="Rule precision"
      description="Of the executions a rule matched that got feedback, the share confirmed FRAUD."
      table={table}
      tableOnly
      empty={data.rulePrecision.length === 0 && 'No rule matched in this period'}
    >
      {/* Tall enough for twenty rules without scrolling a 320 px box; when it does scroll, the
          region takes the focus so the keyboard can scroll it too. */}
      <div className="max-h-[40rem] overflow-auto" tabIndex={0} role="region" aria-label={table.caption}>
        <StaticTable
          caption={table.caption}
          rows={data.rulePrecision}
          rowKey={(r) => r.ruleId}
          columns={[
            {
              header: 'Rule',
              rowHeader: true,
              className: 'font-normal normal-case tracking-normal',
              cell: (r) => (
                <>
                  {r.name ?? r.ruleId}
                  {r.name ? <span className="block font-mono text-xs text-muted-fg">{r.ruleId}</span> : null}
                </>
              ),
            },
            { header: 'Matched', ...NUMERIC, cell: (r) => <Num n={r.matched} href={href({ rule: r.ruleId })} /> },
            {
              header: 'FRAUD',
              ...NUMERIC,
              cell: (r) => <Num n={r.fraud} href={href({ rule: r.ruleId, feedback: 'FRAUD' })} />,
            },
            {
              header: 'NOT_FRAUD',
              ...NUMERIC,
              cell: (r) => <Num n={r.notFraud} href={href({ rule: r.ruleId, feedback: 'NOT_FRAUD' })} />,
            },
            {
              header: 'Precision',
              headerClassName: 'w-40',
              cell: (r) => {
                const p = precision(r);
                return p == null ? (
                  <span className="text-xs text-muted-fg">no feedback</span>
                ) : (
                  <div className="flex items-center gap-2">
                    <div className="h-1.5 flex-1 rounded-full bg-muted" aria-hidden>
                      <div className="h-1.5 rounded-full bg-reject" style={{ width: `${Math.round(p * 100)}%` }} />
                    </div>
                    <span className="w-12 text-right text-xs tabular-nums">{formatPercent(p)}</span>
                  </div>
                );
              },
            },
          ]}
        />
      </div>
    </ChartCard>
  );
}

/** Days where the reject rate or a label's rate jumped above its trailing baseline. */
export function SpikeAlerts({ data }: Props) {
  const f = data.filters;
  const R = SPIKE_RULE;
  const what = (a: TrendsData['alerts'][number]) =>
    a.kind === 'reject_rate' ? 'Reject rate' : `${a.capability} · ${a.label}`;
  const linkOf = (a: TrendsData['alerts'][number]) =>
    trendsListHref(
      f,
      { from: a.day, to: a.day },
      a.kind === 'reject_rate' ? { decision: 'REJECTED' } : { capability: a.capability, capLabel: a.label },
    );
  const table: ChartTable = {
    caption: 'Spike alerts',
    columns: ['Day', 'What', 'Executions', 'Of', 'Rate', 'Baseline mean', 'Baseline SD', 'Baseline days'],
    rows: data.alerts.map((a) => [
      cell(a.day),
      cell(what(a)),
      cell(a.n, linkOf(a)),
      cell(a.total, trendsListHref(f, { from: a.day, to: a.day })),
      { ...cell(formatPercent(a.rate)), numeric: true },
      { ...cell(formatPercent(a.mean)), numeric: true },
      { ...cell(formatPercent(a.sd)), numeric: true },
      cell(a.baselineDays),
    ]),
  };
  return (
    <ChartCard
      id="alerts"
      title="Spike alerts"
      description={`A day is flagged when its rate is more than ${R.sigmas} standard deviations (at least ${R.minSdPoints} point) above the mean of the previous ${R.baselineDays} days, with at least ${R.minExecutions} executions that day and ${R.minBaselineDays} days of history.`}
      table={table}
      tableOnly
    >
      {data.alerts.length === 0 ? (
        <p className="text-sm text-muted-fg">No spikes in this period.</p>
      ) : (
        <ul className="divide-y divide-border" aria-label="Spike alerts">
          {data.alerts.map((a, i) => (
            <li key={i} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm">
              <Badge tone={a.kind === 'reject_rate' ? 'reject' : a.decisionType === 'WARNING' ? 'warn' : 'reject'}>
                {a.kind === 'reject_rate' ? 'Reject rate' : 'Label'}
              </Badge>
              <span className="font-medium">{formatDate(a.day)}</span>
              <span className="min-w-0 break-all">{a.kind === 'label' ? what(a) : null}</span>
              <span className="tabular-nums">
                <strong>{formatPercent(a.rate)}</strong> ({formatNumber(a.n)} of {formatNumber(a.total)}) against{' '}
                {formatPercent(a.mean)} ± {formatPercent(a.sd)} over {a.baselineDays} days
              </span>
              <a className="ml-auto text-primary hover:underline" href={linkOf(a)}>
                View {formatNumber(a.n)} executions
                <span className="sr-only">
                  {' '}
                  for {what(a)} on {a.day}
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </ChartCard>
  );
}
