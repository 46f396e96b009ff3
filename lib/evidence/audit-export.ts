import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { db } from '@/lib/db/client';
import { auditLog, executions, users } from '@/lib/db/schema';
import { exportChunks, planExport, type ExportPlan, type ExportScope } from '@/lib/evidence/export-writer';
import { unsealedEntries } from '@/lib/evidence/seal';
import { consoleSigningKey } from '@/lib/evidence/signing';
import { UUID_RE } from '@/lib/executions/list-params';
import { sealedExecutionsFor, withheldFromExport } from '@/lib/qa/seal';

/** The longest period one export covers. */
export const EXPORT_MAX_DAYS = 366;
const DAY = 86_400_000;

const when = (name: string) =>
  z
    .string()
    .trim()
    .max(40)
    .refine((v) => /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v)), {
      message: `${name} must be a date (YYYY-MM-DD) or an ISO 8601 time`,
    })
    .optional();

/** The examiner's export: a period, a user, an execution, or a combination. */
export const auditExportSchema = z.object({
  from: when('from'),
  to: when('to'),
  user: z.string().trim().max(320).optional(),
  execution: z
    .string()
    .trim()
    .regex(UUID_RE, 'execution must be an execution id (a UUID)')
    .transform((v) => v.toLowerCase())
    .optional(),
  format: z.enum(['csv', 'jsonl'], { message: 'format must be csv or jsonl' }).default('csv'),
});

export type AuditExportFilter = ExportScope;

export type ParsedExport = { ok: true; filter: AuditExportFilter } | { ok: false; status: 400 | 404; detail: string };

/** A date alone starts at 00:00 UTC; as the end of a period it includes that whole day. */
const bound = (v: string | undefined, end: boolean) => {
  if (!v) return null;
  const d = new Date(v.length === 10 ? `${v}T00:00:00Z` : v);
  return end && v.length === 10 ? new Date(d.getTime() + DAY) : d;
};

/**
 * Checks an export request and resolves its user and execution. Every refusal is a 4xx with a
 * sentence saying what to change: never a 500 for a bad date, a long range or an unknown name.
 */
export async function parseAuditExport(params: URLSearchParams): Promise<ParsedExport> {
  const raw = Object.fromEntries(
    ['from', 'to', 'user', 'execution', 'format'].map((k) => [k, params.get(k) || undefined]),
  );
  const parsed = auditExportSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, status: 400, detail: parsed.error.issues[0].message };
  const q = parsed.data;
  const from = bound(q.from, false);
  const to = bound(q.to, true);
  if ((from && !to) || (!from && to)) return { ok: false, status: 400, detail: 'A period needs both from and to.' };
  if (!q.user && !q.execution && !(from && to))
    return { ok: false, status: 400, detail: 'Choose a period (from and to), a user or an execution to export.' };
  if (q.user && !q.execution && !from)
    return { ok: false, status: 400, detail: 'A user’s export needs a period (from and to) of at most a year.' };
  if (from && to) {
    if (to <= from) return { ok: false, status: 400, detail: 'The period ends before it starts.' };
    if (to.getTime() - from.getTime() > EXPORT_MAX_DAYS * DAY)
      return {
        ok: false,
        status: 400,
        detail: `The period is longer than a year (${EXPORT_MAX_DAYS} days): export it in parts.`,
      };
  }
  let user: AuditExportFilter['user'] = null;
  if (q.user) {
    const [u] = await db()
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(
        UUID_RE.test(q.user)
          ? eq(users.id, q.user.toLowerCase())
          : sql`lower(${users.email}) = ${q.user.toLowerCase()}`,
      )
      .limit(1);
    if (!u) return { ok: false, status: 404, detail: `No user ${q.user} is known to Verdict.` };
    user = u;
  }
  if (q.execution) {
    const [cached] = await db()
      .select({ id: executions.id })
      .from(executions)
      .where(eq(executions.id, q.execution))
      .limit(1);
    const [audited] = cached
      ? [cached]
      : await db()
          .select({ id: auditLog.id })
          .from(auditLog)
          .where(and(eq(auditLog.targetType, 'execution'), eq(auditLog.targetId, q.execution)))
          .limit(1);
    if (!audited)
      return { ok: false, status: 404, detail: `No execution ${q.execution} is cached or named in the audit log.` };
  }
  return { ok: true, filter: { from, to, user, execution: q.execution ?? null, format: q.format } };
}

export type PreparedExport =
  { ok: true; plan: ExportPlan; unsealed: number } | { ok: false; status: 409; detail: string };

/**
 * Entries whose details carry the first outcome or label of an execution sealed for the exporter
 * are withheld: given by content hash, their positions in the signed manifest (lib/qa/README.md).
 *
 * Seals what has been committed (the export's own entry included) and signs a checkpoint at the
 * head, so that the file holds every entry up to now, each tied to a signed checkpoint; says how
 * many entries are still outside the chain (their transactions had not committed yet: the file
 * holds sealed entries only, since only they have hashes).
 */
export async function prepareAuditExport(
  f: AuditExportFilter,
  exportedBy: { id: string; email: string },
): Promise<PreparedExport> {
  const sealed = await sealedExecutionsFor(db(), exportedBy.id);
  const r = await planExport(db(), f, exportedBy, consoleSigningKey(), (e) => withheldFromExport(e, sealed));
  if (!r.ok) return { ok: false, status: 409, detail: r.detail };
  return { ok: true, plan: r.plan, unsealed: (await unsealedEntries(db())).count };
}

/** The export file, in pieces (lib/evidence/export-writer.ts). */
export const auditExportChunks = (plan: ExportPlan) => exportChunks(db(), plan);
