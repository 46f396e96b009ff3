/**
 * What `npm run bench:load` counts after the load: once the work behind it has settled (inbox
 * drained, each callback followed by a fetch, feedback delivered), callbacks, feedback and case claims lost or
 * doubled, counted in the database and at the simulator; then whether the cache equals the
 * service for every execution the run touched (each read back from the service, R2).
 */
import { Client } from 'pg';

export interface Counted {
  label: string;
  lost: number;
  twice: number;
  detail: string;
}

async function waitFor(what: string, timeoutMs: number, done: () => Promise<boolean>): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    if (await done().catch(() => false)) return Date.now() - t0;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

const num = async (db: Client, q: string, params: unknown[] = []) =>
  Number((await db.query<{ n: string }>(q, params)).rows[0].n);

/** Seconds until callbacks are dispatched, the storm's executions fetched again and feedback delivered. */
export async function settle(
  db: Client,
  o: { runTag: string; stormIds: string[]; feedbackIds: string[]; timeoutMs: number },
): Promise<number> {
  const ms = await waitFor('the work behind the load to finish', o.timeoutMs, async () => {
    const inbox = await num(db, `select count(*) as n from callbacks where dispatched_at is null`);
    // A callback is processed once a fetch from the service after it has been written.
    const unanswered = await num(
      db,
      `select count(*) as n from callbacks where body->>'userReference' like $1 and processed_at is null and error is null`,
      [`${o.runTag}:%`],
    );
    const stale = await num(
      db,
      `select count(*) as n from executions where id = any($1::uuid[]) and stale_since is not null`,
      [o.stormIds],
    );
    const undelivered = await num(
      db,
      `select count(*) as n from feedback_submissions where execution_id = any($1::uuid[]) and state <> 'delivered'`,
      [o.feedbackIds],
    );
    // Delivered feedback is followed by a refresh of the execution from the service (its own record
    // of the label); until it is done the cache may still show the execution without it.
    const unrefreshed = await num(
      db,
      `select count(*) as n from feedback_submissions s join executions x on x.id = s.execution_id
       where s.execution_id = any($1::uuid[]) and s.state = 'delivered'
         and not exists (select 1 from feedback_events e where e.submission_id = s.id and e.kind = 'refreshed')
         and not exists (select 1 from feedback_events e where e.submission_id = s.id and e.kind = 'refresh_failed'
                           and x.fetched_at > e.at)`,
      [o.feedbackIds],
    );
    return inbox + unanswered + stale + undelivered + unrefreshed === 0;
  });
  return ms / 1000;
}

export async function countCallbacks(db: Client, runTag: string, acknowledged: Set<string>, stormIds: string[]) {
  const rows = (
    await db.query<{ ref: string; n: string }>(
      `select body->>'userReference' as ref, count(*) as n from callbacks where body->>'userReference' like $1 group by 1`,
      [`${runTag}:%`],
    )
  ).rows;
  const stored = new Set(rows.map((r) => r.ref));
  const lost = [...acknowledged].filter((r) => !stored.has(r)).length;
  const twice = rows.filter((r) => Number(r.n) > 1).length;
  // At the service's end: each stored callback was followed by a fetch of its execution from the service.
  const notFetched = await num(
    db,
    `select count(*) as n from callbacks where body->>'userReference' like $1 and (processed_at is null or error is not null)`,
    [`${runTag}:%`],
  );
  const stale = await num(
    db,
    `select count(*) as n from executions where id = any($1::uuid[]) and stale_since is not null`,
    [stormIds],
  );
  return {
    label: 'callbacks',
    lost: lost + notFetched + stale,
    twice,
    detail: `${acknowledged.size} acknowledged, ${stored.size} stored (${lost} acknowledged but not stored, ${twice} stored twice); ${notFetched} not followed by a fetch from the service, ${stale} executions still marked stale`,
  } satisfies Counted;
}

export async function countFeedback(
  db: Client,
  acknowledged: Map<string, string>,
  sim: { writes: number; executions: number; repeated: number },
) {
  const ids = [...acknowledged.keys()];
  const rows = (
    await db.query<{ execution_id: string; n: string; delivered: string }>(
      `select execution_id, count(*) as n, count(*) filter (where state = 'delivered') as delivered
       from feedback_submissions where execution_id = any($1::uuid[]) group by 1`,
      [ids],
    )
  ).rows;
  const stored = new Map(rows.map((r) => [r.execution_id, r]));
  const lostDb = ids.filter((id) => !stored.get(id) || Number(stored.get(id)!.delivered) === 0).length;
  const twiceDb = rows.filter((r) => Number(r.n) > 1).length;
  const lostSim = Math.max(0, ids.length - sim.executions);
  return {
    label: 'feedback',
    lost: lostDb + lostSim,
    twice: twiceDb + sim.repeated,
    detail: `${ids.length} acknowledged; database: ${rows.length} stored, ${lostDb} not delivered, ${twiceDb} stored twice; service: ${sim.executions} executions labelled in ${sim.writes} writes, ${sim.repeated} written more than once`,
  } satisfies Counted;
}

export async function countClaims(db: Client, claims: string[], since: Date) {
  const events = (
    await db.query<{ case_id: string; n: string }>(
      `select case_id, count(*) as n from case_events where type = 'claimed' and at >= $1 group by 1`,
      [since],
    )
  ).rows;
  const stored = new Set(events.map((e) => e.case_id));
  const lost = claims.filter((c) => !stored.has(c)).length;
  const twice = events.filter((e) => Number(e.n) > 1).length + (claims.length - new Set(claims).size);
  const inReview = await num(db, `select count(*) as n from cases where id = any($1::uuid[]) and state = 'in_review'`, [
    claims,
  ]);
  return {
    label: 'case claims',
    lost: lost + (new Set(claims).size - inReview),
    twice,
    detail: `${claims.length} acknowledged, ${events.length} claim events, ${inReview} in review; ${twice} claimed twice`,
  } satisfies Counted;
}

/**
 * The cache against the service for the executions the run touched: status, decision, risk
 * score and feedback, each read from the service (R2) at a pace well inside its retrieval limit.
 */
export async function compareWithService(
  db: Client,
  o: { simUrl: string; basic: string; executions: Array<{ id: string; account: string }>; perSec: number },
) {
  const tok = await fetch(`${o.simUrl}/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: o.basic,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: 'grant_type=client_credentials',
  });
  const { access_token } = (await tok.json()) as { access_token: string };
  const cached = new Map(
    (
      await db.query<{
        id: string;
        status: string;
        decision_type: string | null;
        risk_score: number | null;
        feedback_status: string | null;
      }>(`select id, status, decision_type, risk_score, feedback_status from executions where id = any($1::uuid[])`, [
        o.executions.map((e) => e.id),
      ])
    ).rows.map((r) => [r.id, r]),
  );
  const differ: string[] = [];
  for (const e of o.executions) {
    const t0 = Date.now();
    const r = await fetch(`${o.simUrl}/api/v1/accounts/${e.account}/workflow-executions/${e.id}`, {
      headers: { authorization: `Bearer ${access_token}`, 'user-agent': 'Verdict load bench/1.0' },
    });
    if (!r.ok) throw new Error(`R2 ${e.id}: HTTP ${r.status}`);
    const s = (await r.json()) as {
      workflow: { status: string };
      decision?: { type?: string; risk?: { score?: number } };
      feedback?: { status?: string };
    };
    const c = cached.get(e.id);
    const want = [
      s.workflow.status,
      s.decision?.type ?? null,
      s.decision?.risk?.score ?? null,
      s.feedback?.status ?? null,
    ];
    const got = c ? [c.status, c.decision_type, c.risk_score, c.feedback_status] : ['not cached'];
    if (JSON.stringify(want) !== JSON.stringify(got))
      differ.push(`${e.id}: service ${want.join('/')}, cache ${got.join('/')}`);
    await new Promise((res) => setTimeout(res, Math.max(0, 1000 / o.perSec - (Date.now() - t0))));
  }
  return { compared: o.executions.length, differ };
}
