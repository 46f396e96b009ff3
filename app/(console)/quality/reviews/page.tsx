import type { Metadata } from 'next';
import Link from 'next/link';
import { QaReviewsTable } from '@/components/qa/qa-reviews-table';
import { PageHeader } from '@/components/shell/page-header';
import { Card, CardContent } from '@/components/ui/card';
import { requireRole } from '@/lib/auth/guards';
import { getCaseChipNames, listCaseReasons } from '@/lib/cases/queries';
import { listQaReviews, QA_LIST_LIMIT } from '@/lib/qa/quality';
import { qaListParamsSchema } from '@/lib/qa/schema';

export const metadata: Metadata = { title: 'QA reviews behind a figure' };

const RESULT_TEXT: Record<string, string> = {
  pending: 'waiting or in review',
  decided: 'decided',
  agreed: 'agreed',
  disagreed: 'disagreed',
  disputed: 'to settle',
  settled: 'settled',
  overturned: 'overturned',
  upheld: 'upheld on settlement',
};

/** The QA reviews behind a number of the quality page; unknown or malformed filters are ignored. */
export default async function QaReviewsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requireRole('manager');
  const raw = await searchParams;
  const p = qaListParamsSchema.parse(
    Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v])),
  );
  const [rows, reasons, names] = await Promise.all([listQaReviews(p, user.id), listCaseReasons(), getCaseChipNames()]);
  const chips = [
    p.analyst ? `First analyst: ${names[p.analyst] ?? 'unknown'}` : null,
    p.queue ? `Queue: ${names[p.queue] ?? 'unknown'}` : null,
    p.week ? `Week of ${p.week}` : null,
    p.result ? `Result: ${RESULT_TEXT[p.result]}` : null,
  ].filter(Boolean);
  return (
    <>
      <PageHeader
        title="QA reviews"
        description={
          <>
            {chips.length ? chips.join(' · ') : 'Every QA review'} — {rows.length}
            {rows.length === QA_LIST_LIMIT ? ` (the newest ${QA_LIST_LIMIT})` : ''}.{' '}
            <Link href="/quality" className="text-primary hover:underline">
              Back to Quality
            </Link>
          </>
        }
      />
      <Card>
        <CardContent className="pt-4">
          <QaReviewsTable rows={rows} reasons={reasons} caption="QA reviews" empty="No QA reviews match." />
        </CardContent>
      </Card>
    </>
  );
}
