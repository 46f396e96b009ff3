import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { db } from '@/lib/db/client';
import { auditLog, executions, users } from '@/lib/db/schema';
import { CANONICAL_AT_SQL } from '@/lib/evidence/chain';
import { CSV_HEADER, csvLine, jsonLine, type ExportEntry } from '@/lib/evidence/export-format';
import { sealAuditLog, unsealedEntries } from '@/lib/evidence/seal';
import { UUID_RE } from '@/lib/executions/list-params';

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

export interface AuditExportFilter {
  from: Date | null;
  to: Date | null;
  user: { id: string; email: string } | null;
  execution: string | null;
  format: 'csv' | 'jsonl';
}

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

/**
 * Seals what has been committed (the export's own entry included) so that the file holds every
 * entry up to now, and says how many are still outside the chain: entries of transactions that
 * had not committed yet. The file holds sealed entries only, since only they have hashes.
 */
export async function sealForExport(): Promise<{ unsealed: number }> {
  await sealAuditLog(db());
  return { unsealed: (await unsealedEntries(db())).count };
}

/** One batch of the export, in chain order after `afterSeq`, as the stored texts the chain hashes. */
export async function readAuditExportBatch(
  f: AuditExportFilter,
  afterSeq: number,
  limit = 2000,
): Promise<ExportEntry[]> {
  const where: string[] = ['a.seq > $1'];
  const values: unknown[] = [afterSeq];
  const p = (v: unknown) => {
    values.push(v);
    return `$${values.length}`;
  };
  if (f.from) where.push(`a.at >= ${p(f.from)}`);
  if (f.to) where.push(`a.at < ${p(f.to)}`);
  if (f.user) where.push(`(a.actor_id = ${p(f.user.id)} or lower(a.actor_email) = ${p(f.user.email.toLowerCase())})`);
  if (f.execution) where.push(`a.target_type = 'execution' and a.target_id = ${p(f.execution)}`);
  const r = await db().$client.query<(string | null)[]>({
    text: `select a.seq::text, a.id::text, ${CANONICAL_AT_SQL}, a.actor_id::text, a.actor_email, a.action, a.target_type,
      a.target_id, a.outcome::text, a.ip, a.details::text, a.prev_hash, a.hash
      from audit_log a where ${where.join(' and ')} order by a.seq limit ${p(limit)}`,
    values,
    rowMode: 'array',
  });
  return r.rows.map((c) => ({
    seq: c[0]!,
    id: c[1]!,
    at: c[2]!,
    actorId: c[3],
    actorEmail: c[4],
    action: c[5]!,
    targetType: c[6],
    targetId: c[7],
    outcome: c[8]!,
    ip: c[9],
    details: c[10],
    prevHash: c[11]!,
    hash: c[12]!,
  }));
}

/** The export file, in pieces: the CSV header, then one piece per batch of entries. */
export async function* auditExportChunks(f: AuditExportFilter, batch = 2000): AsyncGenerator<string> {
  if (f.format === 'csv') yield CSV_HEADER;
  let after = 0;
  for (;;) {
    const rows = await readAuditExportBatch(f, after, batch);
    if (!rows.length) return;
    yield rows.map(f.format === 'csv' ? csvLine : jsonLine).join('');
    if (rows.length < batch) return;
    after = Number(rows[rows.length - 1].seq);
  }
}
