import 'server-only';
import { sql } from 'drizzle-orm';
import type { Tx } from '@/lib/db/client';

/**
 * The QA part of the demo history (called by lib/cases/demo.ts in its transaction, after the
 * resolved cases got their dates): about 12 % of each person's resolved cases a week, chosen by a
 * hash of the execution id. Earlier weeks are reviewed, mostly in agreement; a few disagreements
 * are settled (half of them overturned, and the case then carries the settled outcome), the
 * recent ones wait for a manager (some reviewed by the admin, so the demo manager can settle
 * them), and this week's wait for a reviewer.
 */
export async function seedDemoQaHistory(tx: Tx, who: { analyst: string; manager: string; admin: string }) {
  await tx.execute(sql`
    with r as (
      select c.id, c.execution_id, c.queue_id, c.resolved_by, c.outcome, c.reason, c.comment, c.resolved_at,
        date_trunc('week', c.resolved_at at time zone 'UTC')::date as week,
        (('x' || substr(md5('qa:' || c.execution_id::text), 1, 8))::bit(32)::int & 2147483647) % 100 as h
      from cases c
      where c.state = 'resolved' and c.outcome in ('approve', 'decline') and c.resolved_by is not null
    ), p as (
      select r.*,
        week >= date_trunc('week', now() at time zone 'UTC')::date as current,
        week < date_trunc('week', now() at time zone 'UTC')::date - 7 as old,
        -- Disagreements only over the analyst's cases: a manager who took no part settles them.
        (h >= 10 and resolved_by = ${who.analyst}::uuid) as differs,
        case when h = 10 or (h < 10 and h % 3 = 0) then ${who.admin}::uuid
             when resolved_by = ${who.analyst}::uuid then ${who.manager}::uuid else ${who.analyst}::uuid end as reviewer
      from r where h < 12
    ), v as (
      select p.*,
        case when differs then case when outcome = 'approve' then 'decline' else 'approve' end else outcome end as second,
        case when current then 'open' when not differs then 'agreed' when old then 'settled' else 'disputed' end as state
      from p
    ), ins as (
      insert into qa_reviews (case_id, execution_id, queue_id, week, first_analyst_id, first_outcome, first_reason,
        first_comment, first_resolved_at, sampled_at, state, reviewer_id, review_outcome, review_reason, review_comment,
        reviewed_at, settled_by, settled_outcome, settled_reason, settled_comment, settled_at, version)
      select id, execution_id, queue_id, week, resolved_by, outcome, reason, comment, resolved_at,
        least(now() - interval '1 hour', week + interval '7 days 3 hours'), state,
        case when state <> 'open' then reviewer end,
        case when state <> 'open' then second end,
        case when state <> 'open' then case when second = 'decline' then 'DOCUMENT_FORGED' else 'DOCUMENT_GENUINE' end end,
        case when state <> 'open' and second = 'decline' then 'Demo QA: the photo does not match the document.' end,
        case when state <> 'open' then least(now() - interval '30 minutes', week + interval '8 days') end,
        case when state = 'settled' then case when reviewer = ${who.admin}::uuid then ${who.manager}::uuid else ${who.admin}::uuid end end,
        case when state = 'settled' then case when h = 10 then second else outcome end end,
        case when state = 'settled' then case when (case when h = 10 then second else outcome end) = 'decline'
          then 'DOCUMENT_FORGED' else 'DOCUMENT_GENUINE' end end,
        case when state = 'settled' then case when h = 10 then 'Demo: the second look is right.' else 'Demo: the first outcome stands.' end end,
        case when state = 'settled' then least(now() - interval '20 minutes', week + interval '9 days') end,
        case when state = 'open' then 1 when state = 'settled' then 4 else 3 end
      from v
      on conflict (case_id) do nothing
      returning case_id, execution_id, week, state, settled_outcome, settled_reason, settled_comment, settled_at
    ), sampled as (
      insert into case_events (case_id, execution_id, type, details)
      select case_id, execution_id, 'qa_sampled', jsonb_build_object('week', week::text) from ins
    ), overturned as (
      update cases c set outcome = i.settled_outcome, reason = i.settled_reason, comment = i.settled_comment,
        version = c.version + 1
      from ins i where c.id = i.case_id and i.state = 'settled' and i.settled_outcome <> c.outcome
      returning c.id
    )
    select count(*) from ins`);
}
