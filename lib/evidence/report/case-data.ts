import 'server-only';
import type { Role } from '@/lib/auth/roles';
import { and, eq, sql } from 'drizzle-orm';
import { audit } from '@/lib/audit';
import { cachePart, getCachedPart, getExecutionDetail, type ExecutionDetail } from '@/lib/executions/detail';
import { getCaseOfExecution, listNotes } from '@/lib/cases/queries';
import { listFeedbackHistory, type SubmissionView } from '@/lib/feedback/queries';
import { db } from '@/lib/db/client';
import { auditLog } from '@/lib/db/schema';
import { caseReportSections, freeText, type ReportSection } from '@/lib/evidence/report/case-sections';
import { sealAuditLog } from '@/lib/evidence/seal';
import { getIdvClient } from '@/lib/server/idv-client';
import { logError } from '@/lib/log';

/** Images one report embeds at most (front, back and face of a few credentials). */
const MAX_IMAGES = 8;
export const TRAIL_LIMIT = 2000;
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png']);

export interface ReportImage {
  credentialId: string;
  classifier: string;
  category: string | null;
  /** The image, or why it is not in the report. */
  bytes: Buffer | null;
  missing: string | null;
}

export interface TrailEntry {
  /** Null (with the hash) for an entry not yet sealed: its transaction committed after the seal. */
  seq: number | null;
  at: Date;
  actorEmail: string | null;
  action: string;
  outcome: string;
  hash: string | null;
}

export interface CaseReportData {
  detail: ExecutionDetail;
  requester: { id: string; email: string };
  generatedAt: Date;
  revealed: boolean;
  images: ReportImage[];
  /**
   * Empty while the label is sealed for the requester (`detail.feedback.sealed`, lib/qa/seal.ts).
   * Notes and decision comments are null unless revealed (`freeText`), counted in `feedbackTextWithheld`.
   */
  feedback: SubmissionView[];
  feedbackTextWithheld: number;
  /** The execution's audit trail, oldest first, ending with this report's own entry. */
  trail: TrailEntry[];
  /** The case and its notes (free text only under a reveal). */
  caseSections: ReportSection[];
}

async function loadImage(d: ExecutionDetail, credentialId: string, classifier: string): Promise<Buffer | string> {
  const cached = await getCachedPart(credentialId, classifier);
  if (cached) return IMAGE_TYPES.has(cached.contentType) ? cached.bytes : 'not a JPEG or PNG image';
  try {
    const fetched = await getIdvClient().getPart(d.accountId, credentialId, classifier);
    const type = fetched.contentType.split(';')[0].trim().toLowerCase();
    if (!IMAGE_TYPES.has(type)) return 'the service sent something that is not a JPEG or PNG image';
    const bytes = Buffer.from(fetched.bytes);
    await cachePart(d.id, credentialId, classifier, type, bytes);
    return bytes;
  } catch (err) {
    logError('case report image', err);
    return 'the verification service did not deliver it';
  }
}

/**
 * Everything one case report shows, for one requester: masked exactly as the detail page is for
 * them. Images go in only under an active reveal, and each one is then recorded like a view in
 * the image proxy. The report itself is recorded before the trail is read, so the trail ends with
 * it and the report carries that entry's chain hash. Null when the execution is not cached.
 */
export async function getCaseReportData(
  executionId: string,
  requester: { id: string; email: string; role: Role },
): Promise<CaseReportData | null> {
  const detail = await getExecutionDetail(executionId, requester, { record: false });
  if (!detail) return null;
  const revealed = Boolean(detail.reveal);
  const images: ReportImage[] = [];
  if (revealed) {
    for (const part of detail.images.slice(0, MAX_IMAGES)) {
      const got = await loadImage(detail, part.credentialId, part.classifier);
      const bytes = Buffer.isBuffer(got) ? got : null;
      images.push({
        credentialId: part.credentialId,
        classifier: part.classifier,
        category: part.category,
        bytes,
        missing: bytes ? null : (got as string),
      });
      if (bytes)
        await audit({
          action: 'image.view',
          actor: requester,
          targetType: 'execution',
          targetId: detail.id,
          details: { credentialId: part.credentialId, classifier: part.classifier, via: 'case_report' },
        });
    }
  }
  await audit({
    action: 'execution.report',
    actor: requester,
    targetType: 'execution',
    targetId: detail.id,
    details: { revealed, images: images.filter((i) => i.bytes).length },
  });
  // The report prints its own entry's chain hash: seal it (and all committed before it) first.
  await sealAuditLog(db());
  const [feedback, trail, caseView, notes] = await Promise.all([
    // A report asked for during a blind QA review is as blind as the page: no label history.
    detail.feedback.sealed ? Promise.resolve([]) : listFeedbackHistory(detail.id),
    db()
      .select({
        seq: auditLog.seq,
        at: auditLog.at,
        actorEmail: auditLog.actorEmail,
        action: auditLog.action,
        outcome: auditLog.outcome,
        hash: auditLog.hash,
      })
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'execution'), eq(auditLog.targetId, detail.id)))
      // The newest 2,000 (unsealed ones, the newest of all, first): the report's own entry is always in.
      .orderBy(sql`${auditLog.seq} desc nulls first`)
      .limit(TRAIL_LIMIT),
    getCaseOfExecution(detail.id, requester),
    listNotes(detail.id, requester.id),
  ]);
  // Free text never reaches the renderer without a reveal.
  let feedbackTextWithheld = 0;
  const shownFeedback = feedback.map((f) => {
    const note = freeText(f.note, revealed);
    const comment = freeText(f.approvalComment, revealed);
    feedbackTextWithheld += note.withheld + comment.withheld;
    return { ...f, note: note.text, approvalComment: comment.text };
  });
  return {
    detail,
    requester,
    generatedAt: new Date(),
    revealed,
    images,
    feedback: shownFeedback,
    feedbackTextWithheld,
    trail: trail.reverse(),
    caseSections: caseReportSections(caseView, notes, revealed),
  };
}
