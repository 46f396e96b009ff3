#!/usr/bin/env node
/**
 * Checks a Verdict audit export without Verdict: Node 20 or later, nothing but `node:crypto` and
 * `node:fs`. Copy this file and the public key (`npm run audit -- public-key` where Verdict runs,
 * or the audit page) next to the export and run:
 *
 *   node verify-audit-export.mjs <export.csv|export.jsonl> --public-key <key.pem>
 *
 * Exit 0 with "VERIFIED …" when the file proves itself; exit 1 with "NOT VERIFIED: line N: …"
 * naming the first line that does not hold; exit 2 when it cannot run. The rules are those of
 * Verdict's own `npm run audit -- verify-export` (lib/evidence/README.md, "Export"):
 *
 * 1. The manifest (the last line) is signed with the key (Ed25519 over
 *    "verdict-audit-export-v1|" + the manifest's JSON text exactly as the file holds it), and so is
 *    each checkpoint it names ("verdict-audit-checkpoint-v1|<seq>|<hash>|<signed at, ISO>").
 * 2. Each entry's hash is SHA-256(previous hash as 32 bytes ‖ SHA-256(canonical content)), the
 *    canonical content being "v1" then, for seq, at, actor_id, actor_email, action, target_type,
 *    target_id, outcome, ip, details: "|~" for an empty value or "|<UTF-8 byte length>:<text>".
 * 3. Following the file, each line goes on from the one before (next position, its previous hash
 *    the hash before it); a stretch line gives the content hashes of entries left out. The chain
 *    hash at a signed checkpoint's position must be the signed one. A filtered export may jump
 *    ahead only right after a checkpoint; a period export never, except over the positions its
 *    signed manifest lists as `withheld` (entries sealed for the exporter by a blind QA review,
 *    given by content hash only). Every entry must be followed by a checkpoint, and the entries
 *    must be the ones the manifest counts, marks and hashes.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import fs from 'node:fs';

const COLUMNS = 'seq,id,at,actor_id,actor_email,action,target_type,target_id,outcome,ip,details,prev_hash,hash';
const sha = (data) => createHash('sha256').update(data).digest();
const content = (e) =>
  ['seq', 'at', 'actor_id', 'actor_email', 'action', 'target_type', 'target_id', 'outcome', 'ip', 'details']
    .map((k) => (e[k] === null ? '|~' : `|${Buffer.byteLength(e[k])}:${e[k]}`))
    .reduce((a, b) => a + b, 'v1');
const step = (prev, digest) => sha(Buffer.concat([Buffer.from(prev, 'hex'), digest])).toString('hex');

class Refused extends Error {
  constructor(line, reason) {
    super(reason);
    this.line = line;
  }
}
const refuse = (line, reason) => {
  throw new Refused(line, reason);
};

/** CSV records with their first line numbers (RFC 4180); cells put back as exported (formula guards removed). */
function csvRecords(text) {
  const restore = (s) => (/^'[\t\r]/.test(s) ? s.slice(1) : s).replace(/(^|[,;|\t\r\n])(\s*)'(?=[=+\-@'])/g, '$1$2');
  const out = [];
  let cells = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else {
        if (ch === '\n') line++;
        cell += ch;
      }
    } else if (ch === '"') quoted = true;
    else if (ch === ',' || ch === '\n' || ch === '\r') {
      const wasQuoted = text[i - 1] === '"';
      cells.push(cell === '' && !wasQuoted ? null : restore(cell));
      cell = '';
      if (ch !== ',') {
        if (ch === '\r' && text[i + 1] === '\n') i++;
        if (!(cells.length === 1 && cells[0] === null)) out.push({ line: start, cells });
        cells = [];
        start = ++line;
      }
    } else cell += ch;
  }
  if (cell !== '' || cells.length) out.push({ line: start, cells: [...cells, cell === '' ? null : restore(cell)] });
  return out;
}

function records(text) {
  if (!text.startsWith('{')) {
    const [header, ...rest] = csvRecords(text);
    if (header?.cells.join(',') !== COLUMNS) refuse(1, `the header is not ${COLUMNS}`);
    return rest.map(({ line, cells }) => {
      if (cells[0] === '#manifest') return { line, manifest: cells[1], signature: cells[2] };
      if (cells[0] === '#stretch') return { line, stretch: [Number(cells[1]), Number(cells[2])], digests: cells[3] };
      if (cells.length !== 13) refuse(line, `${cells.length} cells where 13 are expected`);
      return { line, entry: Object.fromEntries(COLUMNS.split(',').map((k, i) => [k, cells[i]])) };
    });
  }
  return text.split('\n').flatMap((raw, i) => {
    if (!raw.trim()) return [];
    const m = /^\{"manifest":(\{.*\}),"signature":"([A-Za-z0-9+/]+={0,2})"\}\s*$/.exec(raw);
    if (m) return [{ line: i + 1, manifest: m[1], signature: m[2] }];
    let o;
    try {
      o = JSON.parse(raw);
    } catch {
      refuse(i + 1, 'not a JSON object');
    }
    if (o.stretch) return [{ line: i + 1, stretch: o.stretch, digests: o.content_sha256 }];
    return [{ line: i + 1, entry: { ...o, seq: String(o.seq), id: String(o.id) } }];
  });
}

function check(file, publicKey) {
  const text = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  const recs = records(text);
  const last = recs[recs.length - 1];
  const lastLine = text.replace(/\s+$/, '').split('\n').length;
  if (!last?.manifest)
    refuse(lastLine, 'the file ends without a signed manifest: it was cut short, or its last line was removed');
  const sig = (msg, s) => verify(null, Buffer.from(msg), publicKey, Buffer.from(s, 'base64'));
  if (!sig(`verdict-audit-export-v1|${last.manifest}`, last.signature))
    refuse(last.line, 'the manifest does not verify with this key: the manifest was changed');
  const m = JSON.parse(last.manifest);
  const cps = new Map();
  for (const c of m.checkpoints) {
    if (!sig(`verdict-audit-checkpoint-v1|${c.seq}|${c.hash}|${new Date(c.signedAt).toISOString()}`, c.signature))
      refuse(last.line, `the signed checkpoint at position ${c.seq} does not verify with this key`);
    cps.set(c.seq, c.hash);
  }
  const marks = new Map(m.marks);
  const all = createHash('sha256');
  let pos = null;
  let hash = null;
  let anchored = false;
  let untied = null;
  let walked = 0;
  let n = 0;
  const reach = (line) => {
    if (!cps.has(pos)) return;
    if (cps.get(pos) !== hash)
      refuse(line, `the chain reaches position ${pos} with another hash than the signed checkpoint there`);
    anchored = true;
    untied = null;
  };
  for (const r of recs.slice(0, -1)) {
    if (r.manifest) refuse(r.line, 'a manifest before the last line');
    walked = r.line;
    if (r.stretch) {
      const [a, b] = r.stretch;
      if (pos === null || a !== pos + 1)
        refuse(r.line, 'a stretch of content hashes that does not go on from the line before it');
      // Inside a period export only for entries the signed manifest lists as withheld (sealed for the exporter).
      const held = new Set(m.withheld?.positions ?? []);
      const allHeld = Array.from({ length: b - a + 1 }, (_, k) => a + k).every((p) => held.has(p));
      if (m.kind === 'period' && pos < m.last.seq && !allHeld)
        refuse(r.line, 'a stretch of content hashes inside a period export');
      if (!/^[0-9a-f]*$/.test(r.digests) || r.digests.length !== (b - a + 1) * 64)
        refuse(r.line, 'a malformed stretch');
      for (let k = 0; k <= b - a; k++) {
        hash = step(hash, Buffer.from(r.digests.slice(k * 64, k * 64 + 64), 'hex'));
        pos = a + k;
        anchored = false;
        reach(r.line);
      }
      continue;
    }
    const e = r.entry;
    const seq = Number(e.seq);
    if (step(e.prev_hash, sha(content(e))) !== e.hash)
      refuse(r.line, 'its content does not give its hash: the line was changed');
    if (pos === null && m.kind === 'period' && seq !== m.first.seq)
      refuse(r.line, 'lines at the start were removed or added');
    if (pos !== null) {
      if (seq <= pos) refuse(r.line, 'out of order');
      if ((m.kind === 'period' || !anchored) && (seq !== pos + 1 || e.prev_hash !== hash))
        refuse(r.line, `it does not go on from position ${pos}: a line before it was removed, changed or moved`);
    }
    if (n % m.every === 0 || marks.has(seq)) {
      if (marks.get(seq) !== e.hash)
        refuse(r.line, 'its hash is not the one the manifest signed: an entry up to here was changed');
    }
    all.update(`${e.seq}:${e.hash}\n`);
    n++;
    pos = seq;
    hash = e.hash;
    anchored = false;
    untied ??= { line: r.line, seq };
    reach(r.line);
  }
  if (untied)
    refuse(
      walked,
      `the file stops at position ${pos} without reaching a signed checkpoint after position ${untied.seq}`,
    );
  if (n !== m.count) refuse(last.line, `the manifest counts ${m.count} entries, the file holds ${n}`);
  if (all.digest('hex') !== m.entriesSha256) refuse(last.line, 'the entries are not the ones the manifest signed');
  return { m, n };
}

const args = process.argv.slice(2);
const file = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--public-key');
const pem = args[args.indexOf('--public-key') + 1];
if (!file || args.indexOf('--public-key') < 0 || !pem) {
  console.error('Usage: node verify-audit-export.mjs <export file> --public-key <key.pem>');
  process.exit(2);
}
let publicKey;
try {
  publicKey = createPublicKey(fs.readFileSync(pem, 'utf8'));
} catch (err) {
  console.error(`The public key cannot be read: ${err.message}`);
  process.exit(2);
}
try {
  const { m, n } = check(file, publicKey);
  console.log(
    `VERIFIED: ${n} entries (${m.kind} export, positions ${m.first?.seq ?? '-'} to ${m.last?.seq ?? '-'}), exported by ${m.exportedBy.email} at ${m.exportedAt}` +
      (m.withheld ? `; ${m.withheld.count} entries withheld (content hash only): ${m.withheld.why}.` : '.'),
  );
} catch (err) {
  if (!(err instanceof Refused)) {
    console.log(`NOT VERIFIED: the file cannot be read: ${err.message}.`);
    process.exit(1);
  }
  console.log(`NOT VERIFIED: line ${err.line}: ${err.message}.`);
  process.exit(1);
}
