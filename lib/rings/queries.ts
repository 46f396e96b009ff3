import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { db } from '@/lib/db/client';
import { revealedIds } from '@/lib/pii/reveals';
import { maskField } from '@/lib/pii/mask';
import { sealedExecutionIds } from '@/lib/qa/seal';
import { WEAK_LINK_CUTOFF, type LinkKind } from './kinds';
import type { RingFilters } from './params';

/** Reads of the Rings page. Every personal value leaves here masked unless the user revealed that execution. */

export interface RingRow {
  id: number;
  size: number;
  firstSeen: Date;
  lastSeen: Date;
  rejected: number;
  fraud: number;
  linkKinds: string[];
  score: number;
  status: string;
  dismissedReason: string | null;
  growth24h: number;
  growth7d: number;
}

const PAGE = 50;

export async function listRings(f: RingFilters): Promise<{ rows: RingRow[]; total: number }> {
  const where: SQL[] = [sql`r.size >= ${f.minSize}`];
  if (f.id !== undefined) where.push(sql`r.id = ${f.id}`);
  if (f.kind) where.push(sql`${f.kind} = any(r.link_kinds)`);
  if (f.status !== 'all') where.push(sql`r.status = ${f.status}`);
  // Growth is counted from the members' creation times (an index range per ring).
  const g24 = sql`(select count(*)::int from ring_members m where m.ring_id = r.id and m.created_at > now() - interval '24 hours')`;
  const g7 = sql`(select count(*)::int from ring_members m where m.ring_id = r.id and m.created_at > now() - interval '7 days')`;
  if (f.growth === '24h')
    where.push(
      sql`exists (select 1 from ring_members m where m.ring_id = r.id and m.created_at > now() - interval '24 hours')`,
    );
  if (f.growth === '7d')
    where.push(
      sql`exists (select 1 from ring_members m where m.ring_id = r.id and m.created_at > now() - interval '7 days')`,
    );
  const w = sql.join(where, sql` and `);
  const [rows, count] = await Promise.all([
    db().execute<{
      id: string;
      size: number;
      first_seen: string;
      last_seen: string;
      rejected: number;
      fraud: number;
      link_kinds: string[];
      score: number;
      status: string;
      dismissed_reason: string | null;
      g24: number;
      g7: number;
    }>(sql`
      select r.id, r.size, r.first_seen, r.last_seen, r.rejected, r.fraud, r.link_kinds, r.score, r.status,
        r.dismissed_reason, ${g24} as g24, ${g7} as g7
      from rings r where ${w}
      order by r.score desc, r.id desc limit ${PAGE} offset ${(f.page - 1) * PAGE}`),
    db().execute<{ n: number }>(sql`select count(*)::int as n from rings r where ${w}`),
  ]);
  return {
    rows: rows.rows.map((r) => ({
      id: Number(r.id),
      size: r.size,
      firstSeen: new Date(r.first_seen),
      lastSeen: new Date(r.last_seen),
      rejected: r.rejected,
      fraud: r.fraud,
      linkKinds: r.link_kinds,
      score: Number(r.score),
      status: r.status,
      dismissedReason: r.dismissed_reason,
      growth24h: r.g24,
      growth7d: r.g7,
    })),
    total: count.rows[0]?.n ?? 0,
  };
}
export const RINGS_PAGE_SIZE = PAGE;

export interface RingMember {
  id: string;
  createdAt: Date;
  decisionType: string | null;
  decisionLabel: string | null;
  riskScore: number | null;
  feedbackStatus: string | null;
  name: string | null;
  issuingCountry: string | null;
  documentType: string | null;
  revealed: boolean;
}

/** An attribute node: one shared hashed value, named by kind and a short stable id, never the value. */
export interface RingAttribute {
  id: string;
  kind: LinkKind;
  executions: number;
  weak: boolean;
  memberIds: string[];
}

export interface RingGraph {
  ring: RingRow;
  members: RingMember[];
  attributes: RingAttribute[];
}

export async function getRing(id: number, userId: string): Promise<RingGraph | null> {
  const [ring] = (await listRings({ minSize: 0, kind: null, growth: null, status: 'all', page: 1, id })).rows;
  if (!ring) return null;
  const members = await db().execute<{
    id: string;
    created_at: string;
    decision_type: string | null;
    decision_label: string | null;
    risk_score: number | null;
    feedback_status: string | null;
    first_name: string | null;
    last_name: string | null;
    issuing_country: string | null;
    document_type: string | null;
  }>(sql`
    select e.id, e.created_at, e.decision_type, e.decision_label, e.risk_score, e.feedback_status,
      e.first_name, e.last_name, e.issuing_country, e.document_type
    from ring_members m join executions e on e.id = m.execution_id
    where m.ring_id = ${id} order by e.created_at desc, e.id`);
  const ids = members.rows.map((m) => m.id);
  const revealed = await revealedIds(userId, ids);
  // A member whose label is sealed for this viewer by a pending blind QA review shows no label (lib/qa/seal.ts).
  const sealed = await sealedExecutionIds(db(), userId, ids);
  // Attributes held by two or more members (strong, the ring's joins) and weak values of members
  // (shared with many outside the ring: shown with their count, never joined).
  const attrs = await db().execute<{ kind: string; key_hash: string; executions: number; ids: string[] }>(sql`
    select k.kind, k.key_hash, v.executions, array_agg(k.execution_id::text order by k.execution_id) as ids
    from ring_members m join link_keys k on k.execution_id = m.execution_id
    join link_values v on v.kind = k.kind and v.key_hash = k.key_hash
    where m.ring_id = ${id}
    group by k.kind, k.key_hash, v.executions
    having count(*) >= 2 or v.executions > ${WEAK_LINK_CUTOFF}
    order by k.kind, k.key_hash`);
  return {
    ring,
    members: members.rows.map((m) => {
      const open = revealed.has(m.id);
      const name = [m.first_name, m.last_name].filter(Boolean).join(' ') || null;
      return {
        id: m.id,
        createdAt: new Date(m.created_at),
        decisionType: m.decision_type,
        decisionLabel: m.decision_label,
        riskScore: m.risk_score,
        feedbackStatus: sealed.has(m.id) ? null : m.feedback_status,
        name: open
          ? name
          : name &&
            [maskField('firstName', m.first_name), maskField('lastName', m.last_name)].filter(Boolean).join(' '),
        issuingCountry: m.issuing_country,
        documentType: m.document_type,
        revealed: open,
      };
    }),
    // The hash is keyed, but a prefix is still enough to tell two values apart on the page.
    attributes: attrs.rows.map((a) => ({
      id: `${a.kind}:${a.key_hash.slice(0, 10)}`,
      kind: a.kind as LinkKind,
      executions: a.executions,
      weak: a.executions > WEAK_LINK_CUTOFF,
      memberIds: a.ids,
    })),
  };
}

/** How many of a value's other executions one expansion draws: enough to see who else holds it, few enough to read. */
export const EXPAND_LIMIT = 25;

export interface AttributeHolder {
  id: string;
  decisionType: string | null;
  feedbackStatus: string | null;
  /** The holder's own ring, if it is in one (never this ring: members are drawn already). */
  ringId: number | null;
}

export interface AttributeHolders {
  attributeId: string;
  /** All executions holding the value, the ring's members included. */
  executions: number;
  holders: AttributeHolder[];
}

/**
 * The executions outside the ring that hold one of its attributes (a weak link's other holders,
 * loaded when the analyst expands it on the graph). The attribute is found among the ring's own
 * members' values, so an id guessed or taken from another ring reads nothing; only ids, decisions
 * and labels leave here, never a personal value.
 */
export async function listAttributeHolders(
  ringId: number,
  attributeId: string,
  userId: string,
): Promise<AttributeHolders | null> {
  const [kind, prefix] = attributeId.split(':');
  const key = await db().execute<{ kind: string; key_hash: string; executions: number }>(sql`
    select k.kind, k.key_hash, v.executions
    from ring_members m join link_keys k on k.execution_id = m.execution_id
    join link_values v on v.kind = k.kind and v.key_hash = k.key_hash
    where m.ring_id = ${ringId} and k.kind = ${kind} and left(k.key_hash, 10) = ${prefix}
    limit 1`);
  const value = key.rows[0];
  if (!value) return null;
  const rows = await db().execute<{
    id: string;
    decision_type: string | null;
    feedback_status: string | null;
    ring_id: string | null;
  }>(sql`
    select e.id, e.decision_type, e.feedback_status, m.ring_id
    from link_keys k join executions e on e.id = k.execution_id
    left join ring_members m on m.execution_id = k.execution_id
    where k.kind = ${value.kind} and k.key_hash = ${value.key_hash} and m.ring_id is distinct from ${ringId}
    order by e.created_at desc, e.id limit ${EXPAND_LIMIT}`);
  const ids = rows.rows.map((r) => r.id);
  const sealed = await sealedExecutionIds(db(), userId, ids);
  return {
    attributeId,
    executions: value.executions,
    holders: rows.rows.map((r) => ({
      id: r.id,
      decisionType: r.decision_type,
      feedbackStatus: sealed.has(r.id) ? null : r.feedback_status,
      ringId: r.ring_id === null ? null : Number(r.ring_id),
    })),
  };
}
