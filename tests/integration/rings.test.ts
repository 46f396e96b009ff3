import { randomInt, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db/client';
import { WEAK_LINK_CUTOFF } from '@/lib/rings/kinds';
import { refreshRings } from '@/lib/rings/upkeep';
import { ingestMany } from '@/lib/sync/ingest';
import { purgePersonalData } from '@/lib/sync/purge';
import { buildExecution } from '../support/fixtures/execution';

const T0 = new Date('2026-11-01T10:05:00Z');
const tag = () => randomUUID().slice(0, 8);
// Each member's own IP address, from 10.0.0.0/8, which the simulator never gives an execution
// (its IPs are 100.64.0.0/10), counted so that no two members share one: random ones from a
// small range linked two members of different tests now and then, and a ring grew by them.
let ips = randomInt(1 << 23);
const nextIp = () => {
  const n = ips++;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

/** An execution whose only shared values are the ones given (fresh document, address, no face). */
function member(o: { devices?: string[]; email?: string; phone?: string; decision?: string } = {}) {
  const x = buildExecution({
    documentNumber: `R${tag()}`,
    address: { city: 'Leipzig', line1: `Ringstrasse ${tag()}` },
    decision: o.decision,
    extraCapabilities: {
      imageChecks: [],
      liveness: [],
      deviceRiskVerification: (o.devices ?? []).map((d) => ({
        id: randomUUID(),
        credentials: [],
        decision: { type: 'PASSED', details: { label: 'OK' } },
        data: { deviceIdAlias: d, trueIP: nextIp() },
      })),
      ...(o.email
        ? {
            emailVerification: [
              {
                id: randomUUID(),
                credentials: [],
                decision: { type: 'PASSED', details: { label: 'OK' } },
                data: { emailExists: true },
                additionalInformation: { vendor: { name: 'v', response: { email: o.email } } },
              },
            ],
          }
        : {}),
      ...(o.phone
        ? {
            phoneVerification: [
              {
                id: randomUUID(),
                credentials: [],
                decision: { type: 'PASSED', details: { label: 'OK' } },
                data: { phoneNumber: o.phone },
              },
            ],
          }
        : {}),
    },
  });
  return { ...x, fetchedAt: T0 };
}

async function ringOf(id: string) {
  const r = await db().execute<{ ring_id: string | null; size: number | null; link_kinds: string[] | null }>(sql`
    select m.ring_id, r.size, r.link_kinds from (select ${id}::uuid as id) x
    left join ring_members m on m.execution_id = x.id left join rings r on r.id = m.ring_id`);
  const row = r.rows[0];
  return row.ring_id === null ? null : { id: String(row.ring_id), size: row.size!, kinds: row.link_kinds! };
}

describe('rings: connected components kept in ingest (real database)', () => {
  it('a new execution that shares a device with two rings merges them; purged members leave', async () => {
    const [dA, dB, eA] = [`dev-${tag()}`, `dev-${tag()}`, `a.${tag()}@example.com`];
    const a1 = member({ devices: [dA] });
    const a2 = member({ devices: [dA], email: eA });
    const a3 = member({ email: eA });
    const b1 = member({ devices: [dB], decision: 'REJECTED' });
    const b2 = member({ devices: [dB] });
    await ingestMany(db(), [a1, a2, a3]);
    await ingestMany(db(), [b1, b2]);

    const ringA = await ringOf(a1.id);
    const ringB = await ringOf(b1.id);
    expect(ringA).toMatchObject({ size: 3, kinds: ['device', 'email'] });
    expect(ringB).toMatchObject({ size: 2, kinds: ['device'] });
    expect(ringA!.id).not.toBe(ringB!.id);
    expect(await ringOf(a3.id)).toEqual(ringA);

    // Two device sessions in one execution: one of ring A's devices and one of ring B's.
    const x = member({ devices: [dA, dB] });
    await ingestMany(db(), [x]);
    const merged = await ringOf(x.id);
    // The larger ring survives with its id; the smaller one is gone.
    expect(merged).toMatchObject({ id: ringA!.id, size: 6 });
    for (const m of [a1, a2, a3, b1, b2]) expect((await ringOf(m.id))?.id).toBe(ringA!.id);
    const gone = await db().execute(sql`select 1 from rings where id = ${ringB!.id}`);
    expect(gone.rows).toHaveLength(0);
    const [fig] = (
      await db().execute<{ rejected: number; first_seen: Date; score: number }>(
        sql`select rejected, first_seen, score from rings where id = ${ringA!.id}`,
      )
    ).rows;
    expect(fig.rejected).toBe(1);
    expect(fig.score).toBeGreaterThan(0);
    // The merge reached the detection size: announced once, without personal data.
    const ev = await db().execute<{ payload: Record<string, unknown> }>(
      sql`select payload from webhook_events where type = 'ring.detected' and payload->>'ringId' = ${ringA!.id}`,
    );
    expect(ev.rows).toHaveLength(1);
    expect(ev.rows[0].payload).toMatchObject({ size: 6, linkKinds: ['device', 'email'] });
    expect(JSON.stringify(ev.rows[0].payload)).not.toMatch(/dev-|@example|Erika|Mustermann/);

    // The joining execution is purged: the component splits back into the two rings.
    await purgePersonalData(db(), [x.id]);
    expect(await ringOf(x.id)).toBeNull();
    const left = await ringOf(a1.id);
    const right = await ringOf(b1.id);
    expect(left).toMatchObject({ id: ringA!.id, size: 3 });
    expect(right).toMatchObject({ size: 2 });
    expect(right!.id).not.toBe(left!.id);

    // A member that held the ring together leaves: a1 and a3 only met through a2.
    await purgePersonalData(db(), [a2.id], { reason: 'retention' });
    expect(await ringOf(a1.id)).toBeNull();
    expect(await ringOf(a3.id)).toBeNull();
    const dropped = await db().execute(sql`select 1 from rings where id = ${ringA!.id}`);
    expect(dropped.rows).toHaveLength(0);
    // A re-fetch of an execution purged by retention does not bring its links back.
    await ingestMany(db(), [{ ...a2, fetchedAt: new Date(T0.getTime() + 60_000) }]);
    expect(await ringOf(a2.id)).toBeNull();
  });

  it('a ring that only gains members keeps the figures a recount of every member gives', async () => {
    const figures = async (ringId: string) =>
      (
        await db().execute(
          sql`select size, first_seen, last_seen, rejected, fraud, link_kinds, score::text, status from rings where id = ${ringId}`,
        )
      ).rows[0];
    const [d, e, p] = [`dev-${tag()}`, `g.${tag()}@example.com`, `+4930${parseInt(tag(), 16) % 1e7}`];
    const first = member({ devices: [d] });
    await ingestMany(db(), [first, member({ devices: [d], decision: 'REJECTED' })]);
    const ringId = (await ringOf(first.id))!.id;
    // Pages that only add members: the joiners' figures are added to the ring's own.
    await ingestMany(db(), [member({ devices: [d], email: e })]);
    await ingestMany(db(), [member({ devices: [d], decision: 'REJECTED' }), member({ email: e, phone: p })]);
    await ingestMany(db(), [member({ phone: p, decision: 'REJECTED' })]);
    const kept = await figures(ringId);
    expect(kept).toMatchObject({ size: 6, rejected: 3, link_kinds: ['device', 'email', 'phone'] });
    // Recounted from every member, as a merge or a split would: the same figures.
    await db().transaction((tx) => refreshRings(tx, [Number(ringId)]));
    expect(await figures(ringId)).toEqual(kept);
  });

  it('keeps only keyed hashes in the graph tables, never the shared values', async () => {
    const device = `dev-${tag()}`;
    const email = `clear.${tag()}@example.com`;
    const phone = `+4917${tag().replace(/\D/g, '1')}`;
    const a = member({ devices: [device], email, phone });
    const b = member({ devices: [device], email, phone });
    await ingestMany(db(), [a, b]);
    const rows = await db().execute<Record<string, unknown>>(
      sql`select * from link_keys where execution_id in (${a.id}, ${b.id})`,
    );
    expect(rows.rows.length).toBeGreaterThanOrEqual(8);
    const dump = JSON.stringify(rows.rows) + JSON.stringify((await db().execute(sql`select * from link_values`)).rows);
    for (const clear of [
      device,
      email,
      phone,
      'Ringstrasse',
      'Leipzig',
      a.result.capabilities.extraction[0].data.documentNumber,
    ])
      expect(dump).not.toContain(clear);
    expect((await ringOf(a.id))?.kinds).toEqual(['device', 'email', 'phone']);
  });

  it(`treats a value shared by more than ${WEAK_LINK_CUTOFF} executions as a weak link: counted, not joined`, async () => {
    const phone = `+4930${tag().replace(/\D/g, '2')}`;
    const batch = Array.from({ length: WEAK_LINK_CUTOFF + 1 }, () => member({ phone }));
    await ingestMany(db(), batch.slice(0, 10));
    // Below the cut-off the ten join one ring...
    expect((await ringOf(batch[0].id))?.size).toBe(10);
    await ingestMany(db(), batch.slice(10));
    // ...and once the value passes it, the ring it alone held together falls apart.
    for (const m of [batch[0], batch[9], batch[WEAK_LINK_CUTOFF]]) expect(await ringOf(m.id)).toBeNull();
  });
});
