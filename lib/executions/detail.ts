import 'server-only';
import { and, asc, desc, eq, inArray, ne, or } from 'drizzle-orm';
import { executionRecord, feedbackState, type ExecutionRecord, type FeedbackState } from './shape';
import { audit } from '@/lib/audit';
import { listAuditForTarget } from '@/lib/audit';
import { isSealedExecution, redactSealedTrail, sealedExecutionIds } from '@/lib/qa/seal';
import { getActiveReveal, type ActiveReveal } from '@/lib/pii/reveals';
import { db } from '@/lib/db/client';
import { credentials, executionLinks, executions, partImages, steps as stepsTable } from '@/lib/db/schema';
import { UUID_RE } from '@/lib/executions/list-params';
import { PART_CLASSIFIERS } from '@/lib/idv/schemas';
import { personalContent, type ComparisonRow } from '@/lib/executions/content';

type Json = Record<string, unknown>;

export interface LinkedExecution {
  id: string;
  createdAt: string;
  status: string;
  decisionType: string | null;
  riskScore: number | null;
  definitionKey: string | null;
  /** Null while `sealed`. */
  feedbackStatus: string | null;
  /** A pending QA review seals this execution's label for the viewer (lib/qa/seal.ts). */
  sealed: boolean;
}

export type { ComparisonRow };

export interface ImagePart {
  credentialId: string;
  category: string | null;
  classifier: string;
  captureType: string | null;
}

/** The execution's record (./shape.ts) and what only its own page adds. */
export interface ExecutionDetail extends ExecutionRecord {
  originalDefinitionKey: string | null;
  startedAt: string | null;
  fetchedAt: string | null;
  staleSince: string | null;
  name: string | null;
  documentNumber: string | null;
  /**
   * The label at the service and its delivery. `sealed`: a pending QA review seals it for the
   * viewer (lib/qa/seal.ts) with the case's first outcome, and every other field is null.
   */
  feedback: FeedbackState & { sealed: boolean };
  /** The service's result, masked unless revealed (without its `feedback` while that is sealed). */
  result: Json;
  steps: Json[];
  ruleExecutions: Json[];
  comparison: ComparisonRow[];
  images: ImagePart[];
  links: {
    document: LinkedExecution[];
    account: LinkedExecution[];
    face: LinkedExecution[];
    network: LinkedExecution[];
    notCached: number;
  };
  audit: Awaited<ReturnType<typeof listAuditForTarget>>;
  reveal: (ActiveReveal & { expiresAt: Date }) | null;
}

const LINK_LIMIT = 20;
const linkedColumns = {
  id: executions.id,
  createdAt: executions.createdAt,
  status: executions.status,
  decisionType: executions.decisionType,
  riskScore: executions.riskScore,
  definitionKey: executions.definitionKey,
  feedbackStatus: executions.feedbackStatus,
};
const toLinked = (
  r: {
    id: string;
    createdAt: Date;
    status: string;
    decisionType: string | null;
    riskScore: number | null;
    definitionKey: string | null;
    feedbackStatus: string | null;
  },
  sealed: Set<string>,
): LinkedExecution => ({
  ...r,
  createdAt: r.createdAt.toISOString(),
  feedbackStatus: sealed.has(r.id) ? null : r.feedbackStatus,
  sealed: sealed.has(r.id),
});

/**
 * Everything the detail page shows about one execution, for one user: masked unless that user
 * has revealed it. Records the read in the audit log. Null when the id is not a cached execution.
 */
export async function getExecutionDetail(
  id: string,
  user: { id: string; email: string },
  opts: { record?: boolean } = {},
): Promise<ExecutionDetail | null> {
  if (!UUID_RE.test(id)) return null;
  id = id.toLowerCase();
  const d = db();
  const [row] = await d.select().from(executions).where(eq(executions.id, id)).limit(1);
  if (!row) return null;

  const [reveal, sealed, creds, stepRows, linkRows, docLinks, accountLinks] = await Promise.all([
    getActiveReveal(user.id, id),
    isSealedExecution(d, id, user.id),
    d.select().from(credentials).where(eq(credentials.executionId, id)),
    row.rawSteps
      ? Promise.resolve([])
      : d
          .select({ raw: stepsTable.raw })
          .from(stepsTable)
          .where(eq(stepsTable.executionId, id))
          .orderBy(asc(stepsTable.position)),
    d
      .select({ executionId: executionLinks.executionId, linkedId: executionLinks.linkedId, kind: executionLinks.kind })
      .from(executionLinks)
      .where(or(eq(executionLinks.executionId, id), eq(executionLinks.linkedId, id))),
    row.documentKey
      ? d
          .select(linkedColumns)
          .from(executions)
          .where(and(eq(executions.documentKey, row.documentKey), ne(executions.id, id)))
          .orderBy(desc(executions.createdAt))
          .limit(LINK_LIMIT)
      : Promise.resolve([]),
    d
      .select(linkedColumns)
      .from(executions)
      .where(and(eq(executions.accountId, row.accountId), ne(executions.id, id)))
      .orderBy(desc(executions.createdAt))
      .limit(LINK_LIMIT),
  ]);
  const revealed = Boolean(reveal);

  // Links go both ways: this execution found others, or others found this one.
  const faceIds = new Set<string>();
  const networkIds = new Set<string>();
  for (const l of linkRows) {
    const other = l.executionId === id ? l.linkedId : l.executionId;
    if (other === id) continue;
    (l.kind === 'face' ? faceIds : networkIds).add(other);
  }
  const wanted = [...new Set([...faceIds, ...networkIds])];
  const [cachedLinked, sealedLinks] = await Promise.all([
    wanted.length
      ? d
          .select(linkedColumns)
          .from(executions)
          .where(inArray(executions.id, wanted))
          .orderBy(desc(executions.createdAt))
          .limit(200)
      : Promise.resolve([]),
    // Linked executions under a QA review that is blind for the viewer keep their label to themselves too.
    sealedExecutionIds(d, user.id, [
      ...new Set([...docLinks.map((r) => r.id), ...accountLinks.map((r) => r.id), ...wanted]),
    ]),
  ]);
  const linked = (r: (typeof docLinks)[number]) => toLinked(r, sealedLinks);
  const byId = new Map(cachedLinked.map((r) => [r.id, linked(r)]));

  const content = personalContent(row, stepRows, revealed);
  // The result carries the service's copy of the label.
  const { feedback: _sealedLabel, ...unlabelled } = content.result;

  const images: ImagePart[] = [];
  for (const c of creds) {
    for (const p of c.parts ?? []) {
      if (p.classifier && (PART_CLASSIFIERS as readonly string[]).includes(p.classifier)) {
        images.push({
          credentialId: c.id,
          category: c.category,
          classifier: p.classifier,
          captureType: p.captureType ?? null,
        });
      }
    }
  }

  // The case report records its own read (lib/evidence/report/case-data.ts).
  if (opts.record ?? true)
    await audit({
      action: 'execution.view',
      actor: user,
      targetType: 'execution',
      targetId: id,
      details: { revealed },
    });
  const trail = await listAuditForTarget('execution', id, 50);
  // A QA reviewer reads the trail before deciding: the first outcome and the label are not in it for them.
  const auditRows = sealed ? redactSealedTrail(trail) : trail;

  const iso = (v: Date | null) => v?.toISOString() ?? null;
  return {
    ...executionRecord(row),
    originalDefinitionKey: row.originalDefinitionKey,
    startedAt: iso(row.startedAt),
    fetchedAt: iso(row.fetchedAt),
    staleSince: iso(row.staleSince),
    name: content.name,
    documentNumber: content.documentNumber,
    feedback: sealed
      ? { status: null, reason: null, providedAt: null, delivery: null, sealed }
      : { ...feedbackState(row), sealed },
    result: sealed ? unlabelled : content.result,
    steps: content.steps,
    ruleExecutions: content.ruleExecutions,
    comparison: content.comparison,
    images: row.hasPersonalData && !row.wipedOutAt ? images : [],
    links: {
      document: docLinks.map(linked),
      account: accountLinks.map(linked),
      face: [...faceIds].map((x) => byId.get(x)).filter((x): x is LinkedExecution => Boolean(x)),
      network: [...networkIds]
        .filter((x) => !faceIds.has(x))
        .map((x) => byId.get(x))
        .filter((x): x is LinkedExecution => Boolean(x)),
      notCached: wanted.filter((x) => !byId.has(x)).length,
    },
    audit: auditRows,
    reveal,
  };
}

/** The identifiers the image route needs, checked against the cache: the credential must belong to the execution. */
export async function getPartTarget(executionId: string, credentialId: string) {
  const [row] = await db()
    .select({
      accountId: executions.accountId,
      hasPersonalData: executions.hasPersonalData,
      wipedOutAt: executions.wipedOutAt,
      goneAt: executions.goneAt,
      parts: credentials.parts,
    })
    .from(credentials)
    .innerJoin(executions, eq(executions.id, credentials.executionId))
    .where(and(eq(credentials.id, credentialId), eq(credentials.executionId, executionId)))
    .limit(1);
  return row ?? null;
}

export async function getCachedPart(credentialId: string, classifier: string) {
  const [row] = await db()
    .select({ contentType: partImages.contentType, bytes: partImages.bytes })
    .from(partImages)
    .where(and(eq(partImages.credentialId, credentialId), eq(partImages.classifier, classifier)))
    .limit(1);
  return row ?? null;
}

export async function cachePart(
  executionId: string,
  credentialId: string,
  classifier: string,
  contentType: string,
  bytes: Buffer,
) {
  await db()
    .insert(partImages)
    .values({ executionId, credentialId, classifier, contentType, bytes })
    .onConflictDoNothing();
}
