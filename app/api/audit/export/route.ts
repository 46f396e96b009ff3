import { answeringOutages, problem } from '@/lib/http/problem';
import { audit } from '@/lib/audit';
import { routeUser } from '@/lib/auth/guards';
import { auditExportChunks, parseAuditExport, prepareAuditExport } from '@/lib/evidence/audit-export';
import { logError } from '@/lib/log';

/**
 * The audit log for an examiner: a period (at most a year), a user or an execution, as CSV or JSON
 * lines, with each entry's position and chain hashes and a manifest signed with the checkpoint key,
 * so that `npm run audit -- verify-export` (or the examiner's script) checks the file without the
 * database. Streamed in batches; the export is itself audited, and sealed and signed first so
 * that the file runs up to its own entry. `check=1` only checks the request (204 or the refusal).
 */
export const GET = answeringOutages(async (req: Request) => {
  const auth = await routeUser('manager', { stepUp: 'audit.export' });
  if (auth.error) return auth.error;
  const { user } = auth;
  const params = new URL(req.url).searchParams;
  const parsed = await parseAuditExport(params);
  if (!parsed.ok) return problem(parsed.status, parsed.status === 404 ? 'Not Found' : 'Bad Request', parsed.detail);
  // The audit page asks first, so that a refusal shows in the form and the download starts only
  // for a request that will be answered with a file (a plain form GET would open the JSON).
  if (params.get('check') === '1') return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
  const f = parsed.filter;

  await audit({
    action: 'audit.export',
    actor: user,
    targetType: f.execution ? 'execution' : f.user ? 'user' : 'audit_log',
    targetId: f.execution ?? f.user?.id,
    details: {
      // The examiner's export speaks UTC (ISO 8601), as the log it seals, whatever the reader's zone.
      from: f.from?.toISOString() ?? null,
      to: f.to?.toISOString() ?? null,
      user: f.user?.email ?? null,
      format: f.format,
    },
  });

  const prepared = await prepareAuditExport(f, { id: user.id, email: user.email });
  if (!prepared.ok) return problem(prepared.status, 'Conflict', prepared.detail);
  const { unsealed } = prepared;
  const enc = new TextEncoder();
  const chunks = auditExportChunks(prepared.plan);
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(enc.encode(next.value));
      } catch (err) {
        logError('audit export', err);
        controller.error(err);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  const stamp = new Date().toISOString().slice(0, 16).replace(/[-:T]/g, '');
  const scope = f.execution ? `execution-${f.execution.slice(0, 8)}` : f.user ? 'user' : 'period';
  return new Response(stream, {
    headers: {
      'Content-Type': f.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
      'Content-Disposition': `attachment; filename="audit-${scope}-${stamp}.${f.format}"`,
      'Cache-Control': 'no-store, private',
      'X-Content-Type-Options': 'nosniff',
      // Entries still outside the chain (their transactions had not committed): not in the file.
      'X-Audit-Unsealed': String(unsealed),
    },
  });
});
