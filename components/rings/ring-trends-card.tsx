import { Alert } from '@/components/ui/alert';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatNumber } from '@/lib/format';
import type { RingTrends } from '@/lib/rings/trends';

/** Rings forming and growing over 14 days, with the spike alert when the last day stands out. */
export function RingTrendsCard({ trends }: { trends: RingTrends }) {
  const max = Math.max(1, ...trends.days.map((d) => d.formed + d.grew));
  return (
    <Card className="mb-4">
      <CardHeader>
        <CardTitle>Rings forming</CardTitle>
        <p className="text-xs text-muted-fg">
          Last 24 h: <strong className="tabular-nums">{formatNumber(trends.formed24h)}</strong> new,{' '}
          <strong className="tabular-nums">{formatNumber(trends.grew24h)}</strong> grew.
        </p>
      </CardHeader>
      <CardContent>
        {trends.spike ? (
          <Alert tone="error" className="mb-3">
            Spike: {formatNumber(trends.spike.count)} rings formed or grew in the last 24 hours, against{' '}
            {trends.spike.mean.toFixed(1)} a day before.
          </Alert>
        ) : null}
        <table className="w-full text-xs">
          <caption className="sr-only">Rings formed and rings that grew per day, last 14 days</caption>
          <thead className="sr-only">
            <tr>
              <th>Day</th>
              <th>Formed</th>
              <th>Grew</th>
            </tr>
          </thead>
          <tbody className="flex h-20 items-end gap-1">
            {trends.days.map((d) => (
              <tr
                key={d.day}
                className="flex h-full flex-1 flex-col justify-end"
                title={`${d.day}: ${d.formed} formed, ${d.grew} grew`}
              >
                <th scope="row" className="sr-only">
                  {d.day}
                </th>
                <td className="bg-primary/60" style={{ height: `${(d.grew / max) * 100}%` }}>
                  <span className="sr-only">{d.grew} grew</span>
                </td>
                <td className="bg-reject" style={{ height: `${(d.formed / max) * 100}%` }}>
                  <span className="sr-only">{d.formed} formed</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="mt-1 flex gap-3 text-[11px] text-muted-fg" aria-hidden>
          <span>
            <span className="mr-1 inline-block h-2 w-2 bg-reject" />
            formed
          </span>
          <span>
            <span className="mr-1 inline-block h-2 w-2 bg-primary/60" />
            grew
          </span>
        </p>
      </CardContent>
    </Card>
  );
}
