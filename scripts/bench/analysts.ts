/**
 * The analysts of `npm run bench:load`: each signs in once through next-auth's credentials flow
 * (its own session cookie), then, as one autocannon instance with one connection, loops: a list
 * page with one of several filters, the detail of an execution from that page, "next case" (the
 * server action the queues page calls), and on every third loop (from the first) feedback on an execution (the
 * detail page's server action). Analysts alternate between the consoles.
 *
 * Think time: autocannon paces only in whole requests per second per connection, which cannot
 * express "two seconds between clicks", so each client's next request is deferred through its
 * `setupClient` hook; latencies stay autocannon's own (timed from the write of a request).
 */
import fs from 'node:fs';
import autocannon from 'autocannon';
import { callbackRequest, type CallbackStorm } from './callback-request';

const LIST_FILTERS = [
  '',
  'decision=REJECTED&sort=risk',
  'feedback=none&decision=WARNING&size=100',
  'status=PROCESSED&sort=completed',
  'decision=WARNING&riskMax=70&sort=risk',
  'sort=risk&dir=asc',
];
const EXECUTION_LINK = /\/executions\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/g;

export type Route = 'list' | 'detail' | 'next case' | 'feedback';

export interface AnalystResults {
  latencies: Record<Route, number[]>;
  /** The list's latencies per filter (its query string, '' for none): which list is slow. */
  listByFilter: Record<string, number[]>;
  statuses: Record<Route, Record<string, number>>;
  errors: number;
  timeouts: number;
  /** Executions whose feedback the console acknowledged (ok), and their idempotency keys. */
  feedbackAcknowledged: Map<string, string>;
  /** Cases the console said this analyst claimed. */
  claims: string[];
}

/** Signs in with next-auth's credentials provider, as the login form does; returns the session cookie. */
export async function signIn(base: string, email: string, password: string): Promise<string> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const csrfCookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const r = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${base}/executions`, json: 'true' }),
  });
  const session = r.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('next-auth.session-token='));
  if (!session) throw new Error(`sign-in of ${email} failed (HTTP ${r.status})`);
  return session;
}

/** The id of a server action in this production build. */
export function actionId(exportedName: string): string {
  const manifest = JSON.parse(fs.readFileSync('.next/server/server-reference-manifest.json', 'utf8')) as {
    node: Record<string, { exportedName?: string }>;
  };
  const id = Object.entries(manifest.node).find(([, a]) => a.exportedName === exportedName)?.[0];
  if (!id) throw new Error(`no server action ${exportedName} in the build`);
  return id;
}

export async function runAnalysts(o: {
  consoles: string[];
  analysts: Array<{ email: string; cookie: string }>;
  thinkMs: number;
  durationSec: number;
  feedbackPool: string[];
  runTag: string;
}): Promise<AnalystResults> {
  const routes: Route[] = ['list', 'detail', 'next case', 'feedback'];
  const res: AnalystResults = {
    latencies: Object.fromEntries(routes.map((r) => [r, []])) as unknown as AnalystResults['latencies'],
    statuses: Object.fromEntries(routes.map((r) => [r, {}])) as unknown as AnalystResults['statuses'],
    listByFilter: Object.fromEntries(LIST_FILTERS.map((f) => [f, []])),
    errors: 0,
    timeouts: 0,
    feedbackAcknowledged: new Map(),
    claims: [],
  };
  const claimAction = actionId('claimNextCaseAction');
  const feedbackAction = actionId('submitFeedbackAction');
  const actionHeaders = (cookie: string, id: string) => ({
    cookie,
    'next-action': id,
    'content-type': 'text/plain;charset=UTF-8',
    accept: 'text/x-component',
  });
  let poolNext = 0;
  let feedbackSeq = 0;

  const one = (analyst: { email: string; cookie: string }, i: number) => {
    const url = o.consoles[i % o.consoles.length];
    let loop = 0;
    // One connection, one request at a time: the route of the response just received.
    let current: Route = 'list';
    let filter = '';
    const seen = (route: Route, status: number) => {
      current = route;
      res.statuses[route][status] = (res.statuses[route][status] ?? 0) + 1;
    };
    type Ctx = { ids?: string[]; feedbackFor?: string; key?: string };
    const requests: autocannon.Request[] = [
      {
        method: 'GET',
        setupRequest: (req) => {
          loop++;
          filter = LIST_FILTERS[(i + loop) % LIST_FILTERS.length];
          return { ...req, path: `/executions${filter ? `?${filter}` : ''}` };
        },
        onResponse: (status, body, context) => {
          seen('list', status);
          (context as Ctx).ids = [...new Set([...body.matchAll(EXECUTION_LINK)].map((m) => m[1]))];
        },
      },
      {
        method: 'GET',
        setupRequest: (req, context) => {
          const ids = (context as Ctx).ids ?? [];
          const id = ids.length ? ids[loop % ids.length] : o.feedbackPool[loop % o.feedbackPool.length];
          return { ...req, path: `/executions/${id}` };
        },
        onResponse: (status) => seen('detail', status),
      },
      {
        method: 'POST',
        path: '/queues',
        headers: actionHeaders(analyst.cookie, claimAction),
        body: JSON.stringify([{}]),
        onResponse: (status, body) => {
          seen('next case', status);
          const m = /"caseId":"([0-9a-f-]{36})"/.exec(body);
          if (status === 200 && m) res.claims.push(m[1]);
        },
      },
      {
        method: 'POST',
        // Feedback on every third loop, each time on an execution no one labelled yet.
        setupRequest: (req, context) => {
          if (loop % 3 !== 1 || poolNext >= o.feedbackPool.length) return undefined as unknown as autocannon.Request;
          const c = context as Ctx;
          c.feedbackFor = o.feedbackPool[poolNext++];
          c.key = `${o.runTag}-${feedbackSeq++}`;
          return {
            ...req,
            path: `/executions/${c.feedbackFor}`,
            headers: actionHeaders(analyst.cookie, feedbackAction),
            body: JSON.stringify([
              { executionId: c.feedbackFor, status: 'NOT_FRAUD', version: 'none', idempotencyKey: c.key },
            ]),
          };
        },
        onResponse: (status, body, context) => {
          seen('feedback', status);
          const c = context as Ctx;
          if (status === 200 && /"ok":true/.test(body) && c.feedbackFor)
            res.feedbackAcknowledged.set(c.feedbackFor, c.key!);
        },
      },
    ];
    const timers = new Set<NodeJS.Timeout>();
    return new Promise<void>((resolve, reject) => {
      const instance = autocannon(
        {
          url,
          connections: 1,
          duration: o.durationSec,
          timeout: 30,
          headers: { cookie: analyst.cookie },
          requests,
          setupClient: (client) => {
            const c = client as unknown as { _doRequest: () => void; destroyed: boolean };
            const send = c._doRequest.bind(c);
            let first = true;
            c._doRequest = () => {
              // Think time, ±50% so that the analysts do not click in step; the first click too,
              // somewhere in the first think time: 20 analysts arriving in the same millisecond
              // would be one burst of 20 list pages, a tenth of a minute's list requests.
              const wait = first ? o.thinkMs * Math.random() : o.thinkMs * (0.5 + Math.random());
              first = false;
              const t = setTimeout(() => {
                timers.delete(t);
                if (!c.destroyed) send();
              }, wait);
              timers.add(t);
            };
          },
        },
        (err, result) => {
          for (const t of timers) clearTimeout(t);
          if (err) return reject(err);
          res.errors += result.errors;
          res.timeouts += result.timeouts;
          resolve();
        },
      );
      instance.on('response', (_client, _status, _bytes, responseTime) => {
        res.latencies[current].push(responseTime);
        if (current === 'list') res.listByFilter[filter].push(responseTime);
      });
    });
  };
  await Promise.all(o.analysts.map(one));
  return res;
}

/**
 * The callback storm: service-shaped callbacks for executions the service holds, each with a
 * unique userReference (the database tells which were stored), at `rate` per second in all,
 * split over the consoles, authenticated as the receiver requires (the shared secret).
 */
export async function runStorm(o: {
  consoles: string[];
  secret: string;
  simUrl: string;
  rate: number;
  durationSec: number;
  executions: Array<{ id: string; account: string }>;
  runTag: string;
}) {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const storm: CallbackStorm = { sent: 0, acknowledged: new Set() };
  let errors = 0;
  const results = await Promise.all(
    o.consoles.map(
      (base, k) =>
        new Promise<autocannon.Result>((resolve, reject) => {
          const share = Math.max(
            1,
            Math.round(o.rate / o.consoles.length) + (k === 0 ? o.rate % o.consoles.length : 0),
          );
          const instance = autocannon(
            {
              url: `${base}/api/idv/callback?token=${encodeURIComponent(o.secret)}`,
              connections: Math.min(25, share),
              overallRate: share,
              duration: o.durationSec,
              timeout: 30,
              requests: [callbackRequest({ simUrl: o.simUrl, runTag: o.runTag, executions: o.executions, storm })],
            },
            (err, res) => (err ? reject(err) : resolve(res)),
          );
          instance.on('response', (_c, status, _b, time) => {
            latencies.push(time);
            statuses[status] = (statuses[status] ?? 0) + 1;
          });
        }),
    ),
  );
  for (const r of results) errors += r.errors + r.timeouts;
  return { latencies, statuses, acknowledged: storm.acknowledged, sent: storm.sent, errors };
}
