import { Readable } from 'node:stream';
import { answeringOutages, problem } from '@/lib/http/problem';
import { routeUser } from '@/lib/auth/guards';
import { getCaseReportData } from '@/lib/evidence/report/case-data';
import { renderCaseReport } from '@/lib/evidence/report/render';
import { UUID_RE } from '@/lib/executions/list-params';

/**
 * The case report of one execution as a PDF, streamed as it is drawn: masked unless the requester
 * has an active reveal (then its images are in it and recorded as viewed), and recorded in the
 * audit log, whose chain hash it carries.
 */
export const GET = answeringOutages(async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const auth = await routeUser('analyst');
  if (auth.error) return auth.error;
  const { id } = await ctx.params;
  if (!UUID_RE.test(id)) return problem(404, 'Not Found', 'No such execution: the id is not an execution id.');
  const data = await getCaseReportData(id.toLowerCase(), auth.user);
  if (!data) return problem(404, 'Not Found', `Execution ${id} is not in Verdict's cache.`);
  const doc = renderCaseReport(data);
  return new Response(Readable.toWeb(doc) as ReadableStream<Uint8Array>, {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="case-report-${data.detail.id}.pdf"`,
      'Cache-Control': 'no-store, private',
      'X-Content-Type-Options': 'nosniff',
    },
  });
});
