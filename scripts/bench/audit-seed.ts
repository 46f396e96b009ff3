/**
 * Audit entries for `npm run bench:growth`: appends `n` chained entries after the chain's head,
 * hashed here with the chain's own arithmetic (lib/evidence/chain.ts) and written with COPY, then
 * moves the head and signs a checkpoint there. Ten million entries take minutes; the one
 * set-based statement of `npm run bench:audit` folds the chain in SQL, which is fine at one
 * million and too slow at ten.
 *
 * The entries are written sealed (seq, prev_hash, hash set), so the insert trigger that clears
 * those columns on ordinary appends is disabled for the load. The verifier recomputes every hash,
 * so an entry written here that the database would print differently fails the benchmark's check.
 */
import { hash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { entryHash, GENESIS_HASH, type ChainFields } from '@/lib/evidence/chain';
import { signCheckpoint, type SigningKey } from '@/lib/evidence/signing';
import { copyText } from './copy-text';

const ACTIONS = ['execution.view', 'pii.reveal', 'image.view', 'auth.sign_in', 'executions.export', 'feedback.submit'];
// A year of entries at ten million: one every 3.15 s.
const START_US = Date.UTC(2025, 10, 27) * 1000;
const STEP_US = 3_153_600;

const uuidOf = (h: string) =>
  `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;

/** Entry `g`'s stored values, as the database prints them (jsonb's own text for details). */
function fields(g: number): ChainFields {
  const us = START_US + g * STEP_US + (g % 997);
  const at = `${new Date(Math.floor(us / 1000)).toISOString().slice(0, -1)}${String(us % 1000).padStart(3, '0')}Z`;
  const kind = g % 6;
  return {
    seq: String(g),
    at,
    actorId: null,
    actorEmail: `user${g % 40}@example.test`,
    action: ACTIONS[kind],
    targetType: kind === 3 ? null : 'execution',
    targetId: kind === 3 ? null : uuidOf(hash('md5', String(g % 50_000), 'hex')),
    outcome: g % 50 === 0 ? 'denied' : g % 37 === 0 ? 'failure' : 'success',
    ip: `10.0.${g % 200}.${g % 250}`,
    // jsonb prints keys shorter first, then by bytes, with ": " and ", ".
    details:
      g % 3 === 0
        ? `{"n": ${g}, "revealed": ${g % 2 === 0}}`
        : g % 3 === 1
          ? `{"reason": "case ${g}", "minutes": 15}`
          : null,
  };
}

export async function appendAuditEntries(url: string, n: number, key: SigningKey) {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('set synchronous_commit = off');
    const head = (
      await c.query<{ seq: string; hash: string; id: string }>(
        `select h.seq::text, h.hash, (select coalesce(max(id), 0)::text from audit_log) as id from audit_chain_head h where h.id = 1`,
      )
    ).rows[0];
    const unsealed = (await c.query<{ n: number }>('select count(*)::int as n from audit_log where seq is null'))
      .rows[0].n;
    if (unsealed) throw new Error(`${unsealed} audit entries are not sealed yet: seal them before appending`);
    let prev = head?.hash ?? GENESIS_HASH;
    let seq = Number(head?.seq ?? 0);
    let id = Number(head?.id ?? 0);
    const last = seq + n;
    await c.query('alter table audit_log disable trigger audit_log_unsealed');
    const columns =
      'id, at, actor_id, actor_email, action, target_type, target_id, outcome, ip, details, seq, prev_hash, hash';
    let lastAt = '';
    while (seq < last) {
      const end = Math.min(last, seq + 500_000);
      const rows = function* () {
        let chunk = '';
        while (seq < end) {
          seq++;
          id++;
          const f = fields(seq);
          const h = entryHash(prev, f);
          chunk += `${id}\t${f.at}\t\\N\t${copyText(f.actorEmail)}\t${f.action}\t${copyText(f.targetType)}\t${copyText(f.targetId)}\t${f.outcome}\t${copyText(f.ip)}\t${copyText(f.details)}\t${seq}\t${prev}\t${h}\n`;
          prev = h;
          lastAt = f.at;
          if (chunk.length > 1 << 20) {
            yield chunk;
            chunk = '';
          }
        }
        if (chunk) yield chunk;
      };
      await pipeline(Readable.from(rows()), c.query(copyFrom(`copy audit_log (${columns}) from stdin`)));
    }
    await c.query('alter table audit_log enable trigger audit_log_unsealed');
    await c.query(`select setval(pg_get_serial_sequence('audit_log', 'id'), $1)`, [id]);
    await c.query(
      `insert into audit_chain_head (id, seq, hash, at) values (1, $1, $2, $3)
       on conflict (id) do update set seq = excluded.seq, hash = excluded.hash, at = excluded.at`,
      [seq, prev, lastAt],
    );
    const signedAt = new Date();
    await c.query(
      'insert into audit_checkpoints (seq, hash, signed_at, key_id, signature) values ($1, $2, $3, $4, $5)',
      [seq, prev, signedAt, key.keyId, signCheckpoint(key, { seq, hash: prev, signedAt })],
    );
    await c.query('vacuum analyze audit_log');
    return { entries: seq };
  } finally {
    await c.end();
  }
}
