import { generateKeyPairSync } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { audit } from '@/lib/audit';
import { getAuditIntegrity } from '@/lib/evidence/audit-log';
import { createDb, db } from '@/lib/db/client';
import { entryHash, GENESIS_HASH } from '@/lib/evidence/chain';
import { runVerification, writeCheckpoint } from '@/lib/evidence/checkpoint';
import { sealAuditLog, unsealedEntries } from '@/lib/evidence/seal';
import { signingKeyFrom } from '@/lib/evidence/signing';
import { verifyChain } from '@/lib/evidence/verify';

/**
 * The tamper-evident audit log against a real database: concurrent writers and sealers make one
 * chain, an entry edited or removed directly in SQL (the append-only trigger switched off, as a
 * superuser could) is named by the verification, and a rewrite that recomputes every hash is
 * caught by the signed checkpoint. Each test puts the table back as it found it. Sealing: a
 * rolled-back insert leaves no hole, positions once given never move, and the triggers allow the
 * one sealing update only.
 */
const key = signingKeyFrom('11'.repeat(32));
const otherKey = signingKeyFrom('22'.repeat(32));
const tag = `t${Date.now()}`;
const second = createDb(process.env.DATABASE_URL!, 4);

afterAll(async () => {
  await second.$client.end();
});

type Stored = Record<string, unknown> & { id: string; seq: string };
const entryAt = async (seq: number): Promise<Stored> =>
  (await db().execute(sql`select * from audit_log where seq = ${seq}`)).rows[0] as Stored;
const asSuperuser = async (fn: () => Promise<unknown>, trigger = 'audit_log_no_update') => {
  await db().execute(sql.raw(`alter table audit_log disable trigger ${trigger}`));
  try {
    await fn();
  } finally {
    await db().execute(sql.raw(`alter table audit_log enable trigger ${trigger}`));
  }
};
/** Puts a deleted entry back as it was: the insert trigger would clear its place, so it is off too. */
const putBack = (e: Stored) =>
  asSuperuser(
    () =>
      db()
        .execute(sql`insert into audit_log (id, at, actor_id, actor_email, action, target_type, target_id, outcome, ip, details, seq, prev_hash, hash)
          values (${e.id}, ${e.at}, ${e.actor_id}, ${e.actor_email}, ${e.action}, ${e.target_type},
            ${e.target_id}, ${e.outcome}, ${e.ip}, ${e.details}::jsonb, ${e.seq}, ${e.prev_hash}, ${e.hash})`),
    'audit_log_unsealed',
  );
const mySeqs = async () =>
  (
    await db().execute(sql`select seq::int as seq from audit_log where action like ${`${tag}.%`} order by seq`)
  ).rows.map((r) => Number(r.seq));

describe('the audit chain', () => {
  it('concurrent writers and sealers in two connection pools make one unbroken chain', async () => {
    await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        (i % 10 === 9 ? sealAuditLog(i % 20 === 9 ? db() : second, { batch: 7 }) : Promise.resolve()).then(() =>
          audit(
            {
              action: `${tag}.write`,
              actorEmail: `w${i}@example.test`,
              targetType: 'execution',
              targetId: `x-${i % 7}`,
              details: { i, note: 'ünïcödé ✓ 🙂', nested: { b: [1, -2, 3.5], a: null } },
              ip: i % 2 ? '203.0.113.9' : null,
            },
            i % 2 ? db() : second,
          ),
        ),
      ),
    );
    await sealAuditLog(second);
    expect((await unsealedEntries(db())).count).toBe(0);
    const seqs = await mySeqs();
    expect(seqs).toHaveLength(120);
    const rows = (await db().execute(sql`select seq::int, prev_hash, hash from audit_log order by seq`)).rows as {
      seq: number;
      prev_hash: string;
      hash: string;
    }[];
    expect(rows[0]).toMatchObject({ seq: 1, prev_hash: GENESIS_HASH });
    rows.forEach((r, i) => {
      expect(r.seq).toBe(i + 1);
      if (i) expect(r.prev_hash).toBe(rows[i - 1].hash);
    });
    const [head] = (await db().execute(sql`select seq::int, hash from audit_chain_head`)).rows;
    expect(head).toEqual({ seq: rows.length, hash: rows[rows.length - 1].hash });
    const r = await verifyChain(db());
    expect(r.failure).toBeNull();
    expect(r.entries).toBe(rows.length);
  });

  it('the trigger and the verifier compute the same hash from the same stored values', async () => {
    const [seq] = await mySeqs();
    const row = (
      await db().execute(sql`select seq::text, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at,
        actor_id::text, actor_email, action, target_type, target_id, outcome::text, ip, details::text, prev_hash, hash
        from audit_log where seq = ${seq}`)
    ).rows[0] as Record<string, string | null>;
    expect(
      entryHash(row.prev_hash!, {
        seq: row.seq!,
        at: row.at!,
        actorId: row.actor_id,
        actorEmail: row.actor_email,
        action: row.action!,
        targetType: row.target_type,
        targetId: row.target_id,
        outcome: row.outcome!,
        ip: row.ip,
        details: row.details,
      }),
    ).toBe(row.hash);
  });

  it('an entry edited directly in SQL is named, and only that one', async () => {
    const seqs = await mySeqs();
    const target = seqs[40];
    const before = await entryAt(target);
    await asSuperuser(() =>
      db().execute(sql`update audit_log set details = '{"i": 999}'::jsonb where seq = ${target}`),
    );
    try {
      const r = await verifyChain(db());
      expect(r.ok).toBe(false);
      expect(r.failure).toMatchObject({ seq: target, id: Number(before.id) });
      expect(r.failure!.reason).toMatch(/changed/);
      expect(r.verifiedSeq).toBe(target - 1);
    } finally {
      await asSuperuser(() =>
        db().execute(sql`update audit_log set details = ${before.details}::jsonb where seq = ${target}`),
      );
    }
    expect((await verifyChain(db())).ok).toBe(true);
  });

  it('an entry deleted directly in SQL is found: the entry after it names the gap', async () => {
    const seqs = await mySeqs();
    const target = seqs[60];
    const before = await entryAt(target);
    const after = await entryAt(target + 1);
    await asSuperuser(() => db().execute(sql`delete from audit_log where seq = ${target}`));
    try {
      const r = await verifyChain(db());
      expect(r.failure).toMatchObject({ seq: target + 1, id: Number(after.id) });
      expect(r.failure!.reason).toMatch(new RegExp(`position ${target}\\) is missing`));
    } finally {
      await putBack(before);
    }
    expect((await verifyChain(db())).ok).toBe(true);
  });

  it('a signed checkpoint catches a rewrite that recomputes every later hash, and a cut-off end', async () => {
    const { checkpoint, verification } = await writeCheckpoint(db(), key);
    expect(verification.ok).toBe(true);
    expect(checkpoint).not.toBeNull();
    expect((await verifyChain(db(), { key })).checkpoints).toBeGreaterThanOrEqual(1);
    // A checkpoint signed by another key is not accepted (the first one found: an export in
    // another test file may have signed one before this).
    const wrong = await verifyChain(db(), { key: otherKey });
    expect(wrong.failure).toMatchObject({
      checkpointId: expect.any(Number),
      reason: expect.stringMatching(/not by the configured key/),
    });
    expect(wrong.failure!.checkpointId).toBeLessThanOrEqual(checkpoint!.id);

    const target = (await mySeqs())[10];
    const before = await entryAt(target);
    const rechain = () =>
      db().execute(sql`with hashed as (
          select seq, audit_chain_fold(sha256(convert_to(audit_canonical(seq, at, actor_id, actor_email, action, target_type,
            target_id, outcome, ip, details), 'UTF8'))) over (order by seq rows between unbounded preceding and current row) as h
          from audit_log), linked as (
          select seq, h, lag(h, 1, ${`\\x${GENESIS_HASH}`}::bytea) over (order by seq) as p from hashed)
        update audit_log a set prev_hash = encode(l.p, 'hex'), hash = encode(l.h, 'hex') from linked l
        where a.seq = l.seq and a.seq >= ${target}`);
    const moveCheckpoints = () =>
      db().execute(sql`update audit_checkpoints c set hash = a.hash from audit_log a where a.seq = c.seq`);
    await asSuperuser(async () => {
      await db().execute(sql`update audit_log set action = 'rewritten' where seq = ${target}`);
      await rechain();
    });
    try {
      // The recorded checkpoint still holds the old hash at its position.
      const r = await verifyChain(db(), { key });
      expect(r.failure).toMatchObject({ seq: checkpoint!.seq, checkpointId: checkpoint!.id });
      expect(r.failure!.reason).toMatch(/rewritten/);
      // Whoever can rewrite the log can rewrite the checkpoint table too: then only the signature,
      // made with a key the database does not hold, tells.
      await db().execute(sql`alter table audit_checkpoints disable trigger audit_checkpoints_no_update`);
      await moveCheckpoints();
      const unsigned = await verifyChain(db());
      expect(unsigned.ok).toBe(true);
      expect(unsigned.checkpointsUnchecked).toBeGreaterThanOrEqual(1);
      const signed = await verifyChain(db(), { key });
      expect(signed.failure).toMatchObject({ checkpointId: checkpoint!.id });
      expect(signed.failure!.reason).toMatch(/signature that does not verify/);
    } finally {
      await asSuperuser(async () => {
        await db().execute(sql`update audit_log set action = ${before.action} where seq = ${target}`);
        await rechain();
      });
      await moveCheckpoints();
      await db().execute(sql`alter table audit_checkpoints enable trigger audit_checkpoints_no_update`);
    }
    expect((await verifyChain(db(), { key })).ok).toBe(true);

    // Cutting off the end of the log, head included, leaves the checkpoint pointing past it.
    const last = await entryAt(checkpoint!.seq);
    await asSuperuser(() => db().execute(sql`delete from audit_log where seq = ${checkpoint!.seq}`));
    try {
      const r = await verifyChain(db(), { key });
      expect(r.failure).toMatchObject({ checkpointId: checkpoint!.id });
      expect(r.failure!.reason).toMatch(/entries were removed/);
    } finally {
      await putBack(last);
    }
  });

  it('verifies a time range, and records each verification for the audit page', async () => {
    await audit({ action: `${tag}.later`, ip: null });
    const since = new Date(Date.now() - 60_000);
    const r = await verifyChain(db(), { from: since, to: new Date(Date.now() + 60_000), key });
    expect(r.ok).toBe(true);
    expect(r.entries).toBeGreaterThan(0);
    // The entry just written is not sealed yet: counted apart, neither verified nor a failure.
    expect(r.unsealed).toBe(1);
    const all = await runVerification(db(), key, 'cli');
    expect(all.ok).toBe(true);
    const status = await getAuditIntegrity();
    expect(status.last).toMatchObject({ ok: true, source: 'cli', verifiedSeq: all.verifiedSeq });
    expect(status.lastFailure).toBeNull();
    expect(status.unsealed.count).toBe(0);
  });

  it('keys: a PEM Ed25519 key works like a seed; anything else is refused', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(signingKeyFrom(pem).keyId).toMatch(/^[0-9a-f]{16}$/);
    expect(signingKeyFrom(Buffer.alloc(32, 0x11).toString('base64')).keyId).toBe(key.keyId);
    expect(() => signingKeyFrom('too-short')).toThrow(/32 bytes/);
  });
});

describe('sealing', () => {
  const sealed = async (action: string) =>
    (
      await db().execute(
        sql`select id::int, seq::int, hash from audit_log where action = ${`${tag}.${action}`} order by id`,
      )
    ).rows as { id: number; seq: number | null; hash: string | null }[];
  const verifies = async () => {
    await sealAuditLog(db());
    const r = await verifyChain(db(), { key });
    expect(r.failure).toBeNull();
    expect(r.unsealed).toBe(0);
    return r;
  };

  it('a rolled-back insert leaves no hole that verify would report', async () => {
    await db()
      .transaction(async (tx) => {
        await audit({ action: `${tag}.rolled-back`, ip: null }, tx);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await audit({ action: `${tag}.after-rollback`, ip: null });
    const before = await verifies();
    expect(await sealed('rolled-back')).toEqual([]);
    const [after] = await sealed('after-rollback');
    expect(after.seq).toBe(before.verifiedSeq);
  });

  it('positions follow commits, and once given never move', async () => {
    // Postgres: a transaction still open when others commit is sealed after them. PGlite runs one
    // transaction at a time across connections, so there the writers simply take turns.
    const open = inject('databaseKind') === 'postgres' ? await second.$client.connect() : null;
    try {
      if (open) {
        await open.query('begin');
        await open.query(`insert into audit_log (action) values ($1)`, [`${tag}.slow`]);
      }
      for (let i = 0; i < 5; i++) await audit({ action: `${tag}.quick`, ip: null });
      expect((await sealAuditLog(db(), { batch: 2 })).sealed).toBeGreaterThanOrEqual(5);
      const quick = await sealed('quick');
      // One batch after another, each in id order: consecutive positions.
      expect(quick.map((q) => q.seq)).toEqual(quick.map((_, i) => quick[0].seq! + i));
      if (open) {
        expect(await sealed('slow')).toEqual([]);
        await open.query('commit');
        expect((await unsealedEntries(db())).count).toBe(1);
        expect((await sealAuditLog(db())).sealed).toBe(1);
        const [slow] = await sealed('slow');
        expect(slow.id).toBeLessThan(quick[0].id);
        expect(slow.seq).toBe(quick[4].seq! + 1);
      }
      // Sealing again changes nothing, and nothing may move a sealed entry.
      expect((await sealAuditLog(db())).sealed).toBe(0);
      expect(await sealed('quick')).toEqual(quick);
      await expect(
        db().execute(sql`update audit_log set seq = seq + 1000 where id = ${quick[0].id}`),
      ).rejects.toThrow();
      await expect(
        db().execute(sql`update audit_log set prev_hash = null, seq = null, hash = null where id = ${quick[0].id}`),
      ).rejects.toThrow();
    } finally {
      open?.release();
    }
    await verifies();
  });

  it('an insert cannot place itself, and an unsealed entry can only be sealed, not edited', async () => {
    await db().execute(
      sql`insert into audit_log (action, seq, prev_hash, hash) values (${`${tag}.forged`}, 999999, ${GENESIS_HASH}, ${GENESIS_HASH})`,
    );
    const [forged] = await sealed('forged');
    expect(forged).toMatchObject({ seq: null, hash: null });
    await expect(
      db().execute(sql`update audit_log set action = 'something else' where id = ${forged.id}`),
    ).rejects.toThrow();
    await verifies();
    expect((await sealed('forged'))[0].seq).not.toBeNull();
  });
});
