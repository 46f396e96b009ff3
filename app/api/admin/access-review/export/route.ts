import { audit } from '@/lib/audit';
import { answeringOutages } from '@/lib/http/problem';
import { routeUser } from '@/lib/auth/guards';
import { accessReviewCsv, loadAccessReview } from '@/lib/auth/access-review';

/** The access review as CSV for the examiner; the download is audited. */
export const GET = answeringOutages(async () => {
  const auth = await routeUser('admin');
  if (auth.error) return auth.error;
  const review = await loadAccessReview();
  await audit({ action: 'access_review.export', actor: auth.user, details: { users: review.users.length } });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(accessReviewCsv(review), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="verdict-access-review-${day}.csv"`,
      'Cache-Control': 'no-store',
    },
  });
});
