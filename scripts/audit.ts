/**
 * `npm run audit -- verify [--from <iso>] [--to <iso>]`: walks the audit chain of the configured
 * database (DATABASE_URL, or the running `npm start`'s embedded one), checks the signed
 * checkpoints with the audit signing key, records the result for the audit page, and names the
 * first entry that does not match. Exit code 1 when one does not.
 *
 * `npm run audit -- checkpoint`: signs the chain's head now (the worker does it every 15 minutes).
 *
 * `npm run audit -- verify-export <file> [--public-key <pem file>]`: checks an audit export (CSV
 * or JSON lines) offline, without the database: its signed manifest, the chain through it, and
 * its ties to signed checkpoints; names the first line that does not hold. The key is the given
 * public key, else the configured signing key (AUDIT_SIGNING_KEY or DATA_DIR/audit-signing-key).
 *
 * `npm run audit -- public-key`: prints the public half of the signing key (PEM), for examiners.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createDb } from '@/lib/db/client';
import { runMigrations } from '@/lib/db/migrate';
import { writeCheckpoint } from '@/lib/evidence/checkpoint';
import { sealAuditLog } from '@/lib/evidence/seal';
import { verifyExportFile } from '@/lib/evidence/export-file';
import { publicKeyFromPem } from '@/lib/evidence/signed-statements';
import { auditSigningKey, existingAuditSigningKey, publicKeyPem } from '@/lib/evidence/signing';
import { recordVerification, verifyChain } from '@/lib/evidence/verify';
import { loadConfigOrExit, openDatabase } from '@/lib/server/runtime';

const USAGE = `Usage:
  npm run audit -- verify [--from <ISO time>] [--to <ISO time>]
  npm run audit -- checkpoint
  npm run audit -- verify-export <file> [--public-key <pem file>]
  npm run audit -- public-key`;

function flag(args: string[], name: string): Date | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  const d = v ? new Date(v) : new Date(NaN);
  if (Number.isNaN(d.getTime())) {
    console.error(`${name} needs an ISO 8601 date or time, e.g. 2026-11-01 or 2026-11-01T12:00:00Z`);
    process.exit(2);
  }
  return d;
}

async function main() {
  const [cmd, ...args] = process.argv.slice(2);
  if (cmd === 'verify-export') {
    const file = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--public-key');
    if (!file) {
      console.error(USAGE);
      process.exit(2);
    }
    const pemAt = args.indexOf('--public-key');
    let publicKey;
    try {
      if (pemAt >= 0) publicKey = publicKeyFromPem(fs.readFileSync(args[pemAt + 1] ?? '', 'utf8'));
      else publicKey = existingAuditSigningKey(path.resolve(loadConfigOrExit().DATA_DIR))?.publicKey;
    } catch (err) {
      console.error(`The public key cannot be read: ${(err as Error).message}`);
      process.exit(2);
    }
    if (!publicKey) {
      console.error(
        'No signing key here: give the public key with --public-key <file> (`npm run audit -- public-key` prints it where Verdict runs).',
      );
      process.exit(2);
    }
    const r = await verifyExportFile(file, publicKey);
    if (!r.ok) {
      const f = r.failure!;
      console.log(
        `NOT VERIFIED: ${f.line ? `line ${f.line}` : 'the file'}${f.seq !== null ? ` (position ${f.seq}${f.id !== null ? `, entry id ${f.id}` : ''})` : ''}: ${f.reason}.`,
      );
      console.log(`${r.entries} entries before it verified.`);
      process.exit(1);
    }
    const m = r.manifest!;
    const scope =
      m.kind === 'period'
        ? `every entry of the period ${m.filter.from} to ${m.filter.to}`
        : `the entries of ${[m.filter.user && `user ${m.filter.user}`, m.filter.execution && `execution ${m.filter.execution}`, m.filter.from && `${m.filter.from} to ${m.filter.to}`].filter(Boolean).join(', ')}`;
    console.log(
      `Verified: ${r.entries} entries (${r.format}), ${scope}, positions ${r.firstSeq ?? '-'} to ${r.lastSeq ?? '-'}; ` +
        `the manifest and ${m.checkpoints.length} signed checkpoint(s) hold with key ${m.keyId}` +
        `${r.anchor ? `, the last entry tied to the checkpoint at position ${r.anchor.seq} (signed ${r.anchor.signedAt})` : ''}; ` +
        `exported by ${m.exportedBy.email} at ${m.exportedAt}.`,
    );
    if (m.withheld)
      console.log(
        `${m.withheld.count} entries are given by content hash only (positions ${m.withheld.positions.join(', ')}): ${m.withheld.why}. The chain runs through them; their text is in an export by someone for whom the review is not blind, or after it is decided.`,
      );
    return;
  }
  if (cmd === 'public-key') {
    const key = auditSigningKey(path.resolve(loadConfigOrExit().DATA_DIR));
    process.stdout.write(publicKeyPem(key));
    console.error(`Key ${key.keyId}: give this public key to an examiner to check checkpoints and exports.`);
    return;
  }
  if (cmd !== 'verify' && cmd !== 'checkpoint') {
    console.error(USAGE);
    process.exit(2);
  }
  const env = loadConfigOrExit();
  const dataDir = path.resolve(env.DATA_DIR);
  const database = await openDatabase({ dataDir, own: false });
  await runMigrations(database.url);
  const db = createDb(database.url, 2);
  const key = auditSigningKey(dataDir);
  try {
    if (cmd === 'checkpoint') {
      const { checkpoint, verification } = await writeCheckpoint(db, key);
      if (!verification.ok) {
        console.log(`No checkpoint: position ${verification.failure?.seq}: ${verification.failure?.reason}`);
        process.exitCode = 1;
      } else
        console.log(
          checkpoint ? `Checkpoint ${checkpoint.id} signed at position ${checkpoint.seq}.` : 'Nothing new to sign.',
        );
      return;
    }
    const startedAt = new Date();
    const from = flag(args, '--from');
    const to = flag(args, '--to');
    // Everything committed so far takes its place in the chain before the walk.
    await sealAuditLog(db);
    let shown = 0;
    const r = await verifyChain(db, {
      from,
      to,
      key,
      onProgress: (n) => {
        if (process.stderr.isTTY && n - shown >= 100_000) {
          shown = n;
          process.stderr.write(`\r${n.toLocaleString('en')} entries…`);
        }
      },
    });
    if (shown) process.stderr.write('\n');
    await recordVerification(db, r, 'cli', startedAt);
    const secs = (r.ms / 1000).toFixed(1);
    const tail = r.unsealed
      ? ` ${r.unsealed} entries written in the last seconds are not yet sealed (oldest ${r.oldestUnsealedAt?.toISOString()}): not covered.`
      : '';
    if (r.ok) {
      console.log(
        `Verified: ${r.entries} entries (positions ${r.firstSeq ?? '-'} to ${r.verifiedSeq ?? '-'}), ` +
          `${r.checkpoints} signed checkpoints (key ${key.keyId}) in ${secs} s; ` +
          `verified up to ${r.verifiedAt?.toISOString() ?? '-'}.${tail}`,
      );
    } else {
      const f = r.failure!;
      console.log(
        `NOT VERIFIED: ${f.id !== null ? `entry id ${f.id} at position ${f.seq}` : `position ${f.seq}`}` +
          `${f.checkpointId ? ` (checkpoint ${f.checkpointId})` : ''}: ${f.reason}`,
      );
      console.log(
        `${r.entries} entries before it verified (up to ${r.verifiedAt?.toISOString() ?? 'none'}), in ${secs} s.${tail}`,
      );
      process.exitCode = 1;
    }
  } finally {
    await db.$client.end();
    await database.close();
  }
}

main().catch((err) => {
  console.error('[audit]', err instanceof Error ? err.message : err);
  process.exit(1);
});
