import { inArray } from 'drizzle-orm';
import { answeringOutages, problem } from '@/lib/http/problem';
import { audit } from '@/lib/audit';
import { routeUser } from '@/lib/auth/guards';
import { readListPage, toListRow } from '@/lib/executions/list';
import { EXPORT_MAX_ROWS, parseListParams } from '@/lib/executions/list-params';
import { listWhereOf } from '@/lib/executions/queries';
import { revealedIds } from '@/lib/pii/reveals';
import { db } from '@/lib/db/client';
import { executions } from '@/lib/db/schema';
import { csvLine } from '@/lib/csv';
import { toSearchParams, UUID_RE, type ListParams } from '@/lib/executions/list-params';
import { logError } from '@/lib/log';
import { sealedExecutionIds } from '@/lib/qa/seal';

/** Most rows one export writes; the list's export button says so. */
const BATCH = 1000;

const HEADER = [
  'execution_id',
  'account_id',
  'created_at',
  'completed_at',
  'status',
  'decision_type',
  'decision_label',
  'risk_score',
  'definition_key',
  'customer_internal_reference',
  'user_reference',
  'reporting_criteria',
  'issuing_country',
  'document_type',
  'document_number',
  'name',
  'feedback_status',
  'feedback_reason',
  'feedback_delivery',
  'wiped_out_at',
  'personal_data',
];

/**
 * CSV of the list's current filtered set (or of selected ids), streamed in keyset batches so
 * memory stays flat, masked exactly as on screen (unmasked only where this user has a running
 * reveal, labels blank where a pending QA review seals them for this user), and recorded in the audit log with its filters (a search is recorded by its token).
 */
export const GET = answeringOutages(async (req: Request) => {
  const auth = await routeUser('analyst');
  if (auth.error) return auth.error;
  const { user } = auth;
  const url = new URL(req.url);
  const ids = [
    ...new Set(
      url.searchParams
        .getAll('id')
        .filter((x) => UUID_RE.test(x))
        .map((x) => x.toLowerCase()),
    ),
  ].slice(0, 1000);
  const params: ListParams = {
    ...parseListParams(url.searchParams),
    after: undefined,
    before: undefined,
    at: undefined,
  };
  const list = ids.length ? null : await listWhereOf(params, user.id);
  // Another user's search link runs only as this user's own search, through the list (which adopts it).
  if (list?.search.notice === 'not_yours')
    return problem(
      400,
      'Bad request',
      'This search link was saved by another user: open it on the list first, where it runs as your own search.',
    );
  // The list asks first (components/ui/use-checked-download.ts): a refusal shows beside the button.
  if (url.searchParams.get('check') === '1')
    return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
  const where = list ? list.where : inArray(executions.id, ids);

  await audit({
    action: 'executions.export',
    actor: user,
    targetType: 'executions',
    details: ids.length
      ? { selected: ids.length }
      : { filters: toSearchParams(params, { withCursor: false }).toString(), max: EXPORT_MAX_ROWS },
  });

  const enc = new TextEncoder();
  let cursor: string | undefined;
  let written = 0;
  let started = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (!started) {
          started = true;
          // The byte-order mark lets spreadsheet programs read accented names as UTF-8.
          controller.enqueue(enc.encode(`\uFEFF${csvLine(HEADER)}`));
          return;
        }
        const page = await readListPage(
          { ...params, after: cursor },
          where,
          Math.min(BATCH, EXPORT_MAX_ROWS - written),
        );
        const ids = page.rows.map((r) => r.id);
        const [revealed, sealed] = await Promise.all([
          revealedIds(user.id, ids),
          sealedExecutionIds(db(), user.id, ids),
        ]);
        let chunk = '';
        for (const raw of page.rows) {
          const r = toListRow(params.sort, raw, revealed.has(raw.id), sealed.has(raw.id));
          chunk += csvLine([
            r.id,
            r.accountId,
            // ISO 8601 in UTC, whatever zone the reader chose on screen: a file is read in every zone.
            r.createdAt,
            r.completedAt,
            r.status,
            r.decisionType,
            r.decisionLabel,
            r.riskScore,
            r.definitionKey,
            r.customerInternalReference,
            r.userReference,
            r.reportingCriteria,
            r.issuingCountry,
            r.documentType,
            r.documentNumber,
            r.name,
            r.feedbackStatus,
            r.feedbackReason,
            r.feedbackDelivery,
            r.wipedOutAt,
            !r.hasPersonalData ? 'removed' : r.revealed ? 'revealed' : 'masked',
          ]);
        }
        written += page.rows.length;
        if (chunk) controller.enqueue(enc.encode(chunk));
        cursor = page.next ?? undefined;
        if (!page.next || written >= EXPORT_MAX_ROWS) controller.close();
      } catch (err) {
        logError('export', err);
        controller.error(err);
      }
    },
  });
  const stamp = new Date().toISOString().slice(0, 16).replace(/[-:T]/g, '');
  return new Response(stream, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="executions-${stamp}.csv"`,
      'Cache-Control': 'no-store, private',
      'X-Content-Type-Options': 'nosniff',
    },
  });
});
