import { randomUUID } from 'node:crypto';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@/lib/api/keys';
import { getExecutionDetail } from '@/lib/executions/detail';
import { readListPage, toListRow } from '@/lib/executions/list';
import { db } from '@/lib/db/client';
import { executions, users } from '@/lib/db/schema';
import { csvLine } from '@/lib/csv';
import { maskStyleOf } from '@/lib/pii/mask';
import { getRing, listAttributeHolders, listRings } from '@/lib/rings/queries';
import { startApiServer, type ApiServer } from '../support/api-server';
import { ingestGenerated, type GeneratedDoc } from '../support/generated';

/**
 * Thousands of simulator executions, every personal value they carry collected from the raw
 * documents, and none of them may appear in clear in what a user without a reveal receives: the
 * detail payload (header, capabilities, raw JSON, steps, rules, comparison, links), the CSV, and
 * the read API's execution summary and its two change feeds fetched over HTTP with an API key.
 */
const N = 1500;
const seed = `leak-${randomUUID().slice(0, 8)}`;
const user = { id: randomUUID(), email: `leak-${Date.now()}@example.test` };
/** Keys of free-form vendor data that carry personal values no list of personal keys names. */
const FREE_FORM_PERSONAL = new Set(['city', 'ipLocationCity', 'officers', 'name', 'placeOfBirth', 'isp']);

type Doc = GeneratedDoc;
let docs: Doc[] = [];
let ids: string[] = [];
let api: ApiServer | undefined;

function personalValues(value: unknown, key = '', inData = false, under = false, out = new Set<string>()): Set<string> {
  if (value === null || value === undefined) return out;
  if (Array.isArray(value)) {
    for (const v of value) personalValues(v, key, inData, under, out);
    return out;
  }
  if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value))
      personalValues(
        v,
        k,
        inData || k === 'data',
        under || maskStyleOf(k) !== null || (inData && FREE_FORM_PERSONAL.has(k)),
        out,
      );
    return out;
  }
  const s = String(value);
  // Short values (a house number, a two-letter state) are found by chance in any text; ids of
  // other executions (the network's matches sit under `documentNumber`) are not personal.
  if (
    under &&
    (typeof value === 'string' || typeof value === 'number') &&
    s.length >= 5 &&
    !/^(true|false)$/.test(s) &&
    !UUID.test(s)
  )
    out.add(s);
  return out;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The value as a whole token: "16349" inside an id or another number is not a leak. */
const appearsIn = (text: string, value: string) =>
  new RegExp(`(?<![A-Za-z0-9])${escape(value)}(?![A-Za-z0-9])`).test(text);

beforeAll(async () => {
  await db().insert(users).values({ id: user.id, email: user.email, name: 'Leak test', role: 'analyst' });
  ({ docs, ids } = await ingestGenerated(seed, N, 60));
}, 300_000);

afterAll(async () => {
  await api?.close();
});

/**
 * The document's personal values, but not its workflow's definition key: a random postal code can
 * be that key (10020, about one run in a hundred), which the payloads show in clear by right.
 */
function secretsOf(d: Doc): Set<string> {
  const workflow = d.result.workflow as { definitionKey?: unknown; originalDefinitionKey?: unknown };
  const keys = new Set([workflow.definitionKey, workflow.originalDefinitionKey].map(String));
  const all = personalValues(
    d.result,
    '',
    false,
    false,
    personalValues(d.steps, '', false, false, personalValues(d.rules)),
  );
  return new Set([...all].filter((s) => !keys.has(s)));
}

describe(`masking of ${N} generated executions`, () => {
  it('the masked detail payload carries no personal value in clear', async () => {
    const leaks: string[] = [];
    let checked = 0;
    for (const d of docs) {
      const id = (d.result.workflow as { id: string }).id;
      const secrets = secretsOf(d);
      const detail = await getExecutionDetail(id, user);
      expect(detail).not.toBeNull();
      const text = JSON.stringify(detail);
      // The audit trail's row numbers and chain positions are the console's own (five digits once
      // the log holds 10,000 entries, like a postal code).
      const own = new Set(detail!.audit.flatMap((a) => [String(a.id), String(a.seq)]));
      for (const s of secrets) {
        checked++;
        if (appearsIn(text, s) && !own.has(s)) leaks.push(`${id}: ${s}`);
      }
    }
    expect(checked).toBeGreaterThan(N * 5);
    expect(leaks.slice(0, 20)).toEqual([]);
  }, 300_000);

  it('the masked CSV export carries no personal value in clear', async () => {
    const secrets = new Set<string>();
    for (const d of docs) personalValues(d.result, '', false, false, secrets);
    const params = {
      decision: [],
      status: [],
      cap: [],
      feedback: [],
      sort: 'created',
      dir: 'desc',
      size: 100,
    } as never;
    let csv = '';
    let after: string | undefined;
    do {
      const page = await readListPage({ ...(params as object), after } as never, inArray(executions.id, ids), 500);
      for (const raw of page.rows) {
        const r = toListRow('created', raw, false, false);
        csv += csvLine([
          r.id,
          r.customerInternalReference,
          r.userReference,
          r.issuingCountry,
          r.documentType,
          r.documentNumber,
          r.name,
        ]);
      }
      after = page.next ?? undefined;
    } while (after);
    expect(csv.split('\r\n').length).toBeGreaterThan(N);
    expect([...secrets].filter((s) => appearsIn(csv, s)).slice(0, 20)).toEqual([]);
  }, 120_000);

  it('the read API execution summary carries no personal value in clear', async () => {
    process.env.API_RATE_LIMIT_PER_MINUTE = String(N * 2);
    const { key } = await createApiKey({ name: 'masking test', days: 30 }, user);
    api = await startApiServer();
    const leaks: string[] = [];
    let checked = 0;
    try {
      for (const d of docs) {
        const id = (d.result.workflow as { id: string }).id;
        const res = await fetch(`${api.url}/executions/${id}`, { headers: { Authorization: `Bearer ${key}` } });
        expect(res.status).toBe(200);
        const text = await res.text();
        for (const s of secretsOf(d)) {
          checked++;
          if (appearsIn(text, s)) leaks.push(`${id}: ${s}`);
        }
      }
    } finally {
      delete process.env.API_RATE_LIMIT_PER_MINUTE;
    }
    expect(checked).toBeGreaterThan(N * 5);
    expect(leaks.slice(0, 20)).toEqual([]);
  }, 300_000);

  it("the read API's change feeds carry no personal value in clear", async () => {
    process.env.API_RATE_LIMIT_PER_MINUTE = '1000';
    const { key } = await createApiKey({ name: 'masking test, feeds', days: 30 }, user);
    api ??= await startApiServer();
    // Each item's text, by the execution it is about: an item carries only its own execution's data.
    const texts = new Map<string, string>();
    const read = async (path: string, first: string, idOf: (item: Record<string, string>) => string) => {
      let q = first;
      for (;;) {
        const res = await fetch(`${api!.url}${path}?limit=500&${q}`, { headers: { Authorization: `Bearer ${key}` } });
        expect(res.status).toBe(200);
        const body = (await res.json()) as { data: Array<Record<string, string>>; next: string; hasMore: boolean };
        for (const item of body.data) texts.set(idOf(item), (texts.get(idOf(item)) ?? '') + JSON.stringify(item));
        if (!body.hasMore) return;
        q = `cursor=${encodeURIComponent(body.next)}`;
      }
    };
    try {
      await read('/executions/changes', 'since=2000-01-01T00:00:00Z', (i) => i.id);
      await read('/cases/changes', '', (i) => i.executionId);
    } finally {
      delete process.env.API_RATE_LIMIT_PER_MINUTE;
    }
    const leaks: string[] = [];
    let checked = 0;
    for (const d of docs) {
      const text = texts.get(d.result.workflow.id) ?? '';
      expect(text, d.result.workflow.id).not.toBe('');
      for (const s of secretsOf(d)) {
        checked++;
        if (appearsIn(text, s)) leaks.push(`${d.result.workflow.id}: ${s}`);
      }
    }
    expect(checked).toBeGreaterThan(N * 5);
    expect(leaks.slice(0, 20)).toEqual([]);
  }, 120_000);

  it('the ring tables, the Rings page data and ring.detected carry no personal value in clear', async () => {
    const secrets = new Set<string>();
    for (const d of docs) for (const v of secretsOf(d)) secrets.add(v);
    const idList = sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    );
    const dump = async (q: ReturnType<typeof sql>) => JSON.stringify((await db().execute(q)).rows);
    const ringIds = (
      await db().execute<{ ring_id: string }>(
        sql`select distinct ring_id from ring_members where execution_id in (${idList})`,
      )
    ).rows.map((r) => Number(r.ring_id));
    // The generated demo forms rings (attack crews, repeated documents and faces): the check has something to read.
    expect(ringIds.length).toBeGreaterThan(3);
    let text = await dump(sql`select * from link_keys where execution_id in (${idList})`);
    text += await dump(sql`select * from link_values`);
    text += await dump(sql`select * from rings`);
    text += await dump(sql`select * from ring_members`);
    text += await dump(sql`select payload from webhook_events where type = 'ring.detected'`);
    for (const id of ringIds) {
      const ring = await getRing(id, user.id);
      text += JSON.stringify(ring);
      // Expanding an attribute on the graph (the other executions holding its value) shows no value either.
      for (const a of ring?.attributes ?? []) text += JSON.stringify(await listAttributeHolders(id, a.id, user.id));
    }
    text += JSON.stringify(await listRings({ minSize: 2, kind: null, growth: null, status: 'all', page: 1 }));
    expect([...secrets].filter((v) => appearsIn(text, v)).slice(0, 20)).toEqual([]);
  }, 300_000);
});
