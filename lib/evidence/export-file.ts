import { createHash, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { chainStep, entryHash } from './chain';
import {
  CsvReader,
  csvRecord,
  EXPORT_COLUMNS,
  jsonRecord,
  type ExportEntry,
  type ExportManifest,
  type ExportRecord,
} from './export-format';
import {
  checkpointMessage,
  EXPORT_MANIFEST_VERSION,
  keyIdOf,
  manifestMessage,
  signatureValid,
} from './signed-statements';

export interface ExportFileResult {
  ok: boolean;
  format: 'csv' | 'jsonl';
  entries: number;
  firstSeq: number | null;
  lastSeq: number | null;
  lastHash: string | null;
  /** The signed manifest, once its signature holds. */
  manifest: ExportManifest | null;
  /** The signed checkpoint the file's last entry is tied to. */
  anchor: { seq: number; signedAt: string } | null;
  failure: { line: number; seq: number | null; id: number | null; reason: string } | null;
}

class Stop extends Error {}

/** The manifest is the file's last line; its number is counted only when a failure names it. */
const LAST_LINE = -1;

function countLines(file: string): number {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(1 << 20);
    let lines = 0;
    let lastByte = 0x0a;
    for (let n; (n = fs.readSync(fd, buf, 0, buf.length, null)) > 0;) {
      for (let i = 0; i < n; i++) if (buf[i] === 0x0a) lines++;
      lastByte = buf[n - 1];
    }
    return lastByte === 0x0a ? lines : lines + 1;
  } finally {
    fs.closeSync(fd);
  }
}

/** The last line that is not blank, read from the end (the manifest; a file may be large). */
function lastLine(file: string): string {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    let tail = Buffer.alloc(0);
    for (let pos = size; pos > 0;) {
      const n = Math.min(65_536, pos);
      pos -= n;
      const chunk = Buffer.alloc(n);
      fs.readSync(fd, chunk, 0, n, pos);
      tail = Buffer.concat([chunk, tail]);
      const text = tail.toString('utf8').replace(/\s+$/, '');
      const nl = text.lastIndexOf('\n');
      if (nl >= 0 || pos === 0) return text.slice(nl + 1);
    }
    return '';
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Verifies an audit export offline (`npm run audit -- verify-export <file>`) with the public half
 * of the checkpoint key. First the manifest, the file's last line: its signature, and each signed
 * checkpoint it names. Then the file from the top, following the chain: every entry's content
 * must give its hash; where the file goes on from one position to the next (an entry, or a
 * stretch of content hashes of entries a filtered export leaves out), the link must hold; the
 * chain hash reached at a signed checkpoint's position must be the signed one. A period export
 * holds every position between its first and last entry; a filtered one may jump ahead only from
 * a signed checkpoint. At the end, every entry must be tied to a checkpoint and the file must be
 * the one the manifest counts (number, first and last, the marked hashes, a hash over all).
 * Names the first line that does not hold.
 */
export async function verifyExportFile(file: string, publicKey: KeyObject): Promise<ExportFileResult> {
  const result: ExportFileResult = {
    ok: true,
    format: 'csv',
    entries: 0,
    firstSeq: null,
    lastSeq: null,
    lastHash: null,
    manifest: null,
    anchor: null,
    failure: null,
  };
  const fail = (line: number, e: Partial<ExportEntry> | null, reason: string): never => {
    result.ok = false;
    result.failure = { line, seq: e?.seq ? Number(e.seq) : null, id: e?.id ? Number(e.id) : null, reason };
    throw new Stop();
  };

  let m: ExportManifest | null = null;
  let sawManifest = 0;
  const checkpoints = new Map<number, { hash: string; signedAt: string }>();
  const marks = new Map<number, string>();
  // Positions the signed manifest says were withheld (sealed for the exporter): a period export gives them as content hashes.
  const withheld = new Set<number>();
  const allWithheld = (first: number, last: number) => {
    for (let p = first; p <= last; p++) if (!withheld.has(p)) return false;
    return true;
  };
  const entries = createHash('sha256');
  let pos: number | null = null;
  let chainHash: string | null = null;
  // The walk may jump ahead only from a signed checkpoint; entries since the last one wait to be tied.
  let anchored = false;
  let untied: { line: number; seq: number } | null = null;
  let lastMarkLine = 0;
  let walked = 0;

  const reach = (line: number, e: Partial<ExportEntry> | null) => {
    const cp = checkpoints.get(pos!);
    if (!cp) return;
    if (cp.hash !== chainHash)
      fail(
        line,
        e,
        `the chain reaches position ${pos} with another hash than the checkpoint signed there on ${cp.signedAt}: an entry up to here was changed and the hashes after it recomputed, or a content hash was altered`,
      );
    anchored = true;
    untied = null;
    result.anchor = { seq: pos!, signedAt: cp.signedAt };
  };

  const onEntry = (e: ExportEntry, line: number) => {
    const seq = Number(e.seq);
    if (!/^[0-9a-f]{64}$/.test(e.prevHash) || !/^[0-9a-f]{64}$/.test(e.hash))
      fail(line, e, 'its hashes are not 64 hexadecimal characters');
    if (entryHash(e.prevHash, e) !== e.hash) fail(line, e, 'its content does not give its hash: the line was changed');
    if (pos === null) {
      if (m!.kind === 'period' && seq !== m!.first?.seq)
        fail(
          line,
          e,
          `the file starts at position ${seq}, the manifest at position ${m!.first?.seq}: lines at the start were removed or added`,
        );
    } else {
      if (seq <= pos) fail(line, e, `position ${seq} comes after position ${pos}: the lines are out of order`);
      if (m!.kind === 'period' && pos >= (m!.last?.seq ?? 0))
        fail(line, e, `position ${seq} lies after the last entry the manifest signed: a line was added`);
      if (m!.kind === 'period' || !anchored) {
        if (seq !== pos + 1)
          fail(
            line,
            e,
            `the file goes from position ${pos} to position ${seq}${m!.kind === 'period' ? '' : ' without a signed checkpoint between'}: ${seq - pos === 2 ? 'the entry' : 'the entries'} between ${seq - pos === 2 ? 'is' : 'are'} missing, a line before it was removed or moved`,
          );
        if (e.prevHash !== chainHash)
          fail(
            line,
            e,
            'its previous hash is not the hash of the line before it: a line before it was changed or replaced',
          );
      }
    }
    const index = result.entries;
    const mark = marks.get(seq);
    if (index % m!.every === 0 || mark !== undefined) {
      if (mark === undefined)
        fail(
          line,
          e,
          `the manifest signed another position as the file's entry number ${index + 1}: lines before it were removed or added`,
        );
      if (mark !== e.hash)
        fail(
          line,
          e,
          m!.every === 1
            ? 'its hash is not the one the manifest signed for this position: the line was changed and its hash recomputed'
            : `its hash is not the one the manifest signed for this position: an entry in lines ${lastMarkLine + 1} to ${line} was changed and the hashes after it recomputed`,
        );
      lastMarkLine = line;
    }
    entries.update(`${e.seq}:${e.hash}\n`);
    if (result.firstSeq === null) result.firstSeq = seq;
    result.lastSeq = seq;
    result.lastHash = e.hash;
    result.entries++;
    pos = seq;
    chainHash = e.hash;
    anchored = false;
    untied ??= { line, seq };
    reach(line, e);
  };

  const onRecord = (r: ExportRecord, line: number) => {
    if (sawManifest) fail(line, null, 'a line after the manifest: the file was extended');
    if (r.kind !== 'manifest') walked = line;
    if (r.kind === 'entry') return onEntry(r.entry, line);
    if (r.kind === 'manifest') {
      sawManifest = line;
      return;
    }
    const s = r.stretch;
    if (pos === null || s.first !== pos + 1)
      fail(
        line,
        null,
        `a stretch of content hashes from position ${s.first} that does not go on from the line before it (position ${pos ?? 'none'}): a line before it was removed or moved`,
      );
    if (m!.kind === 'period' && pos! < (m!.last?.seq ?? 0) && !allWithheld(s.first, s.last))
      fail(
        line,
        null,
        `a period export holds every entry up to its last, but the file gives content hashes from position ${s.first}: entries were taken out`,
      );
    for (let k = 0; k <= s.last - s.first; k++) {
      chainHash = chainStep(chainHash!, Buffer.from(s.digests.slice(k * 64, k * 64 + 64), 'hex'));
      pos = s.first + k;
      anchored = false;
      reach(line, null);
    }
  };

  try {
    // 1. The manifest and its signatures.
    const tail = lastLine(file);
    let manifestRecord: ExportRecord | null = null;
    try {
      if (tail.startsWith('{')) manifestRecord = jsonRecord(tail);
      else {
        new CsvReader((cells) => (manifestRecord = csvRecord(cells))).push(`${tail}\n`);
      }
    } catch {
      manifestRecord = null;
    }
    const mr = manifestRecord as ExportRecord | null;
    if (!mr || mr.kind !== 'manifest')
      fail(LAST_LINE, null, 'the file ends without a signed manifest: it was cut short, or its last line was removed');
    const signed = mr as Extract<ExportRecord, { kind: 'manifest' }>;
    const keyId = keyIdOf(publicKey);
    try {
      m = JSON.parse(signed.text) as ExportManifest;
    } catch {
      fail(LAST_LINE, null, 'the manifest is not JSON');
    }
    const manifest = m!;
    if (manifest.version !== EXPORT_MANIFEST_VERSION)
      fail(LAST_LINE, null, `the manifest is of version ${manifest.version}, not ${EXPORT_MANIFEST_VERSION}`);
    if (manifest.keyId !== keyId)
      fail(LAST_LINE, null, `the manifest is signed by key ${manifest.keyId}, not by the given key ${keyId}`);
    if (!signatureValid(publicKey, manifestMessage(signed.text), signed.signature))
      fail(LAST_LINE, null, `the manifest does not verify with key ${keyId}: the manifest was changed`);
    for (const cp of manifest.checkpoints) {
      const statement = { seq: cp.seq, hash: cp.hash, signedAt: new Date(cp.signedAt) };
      if (
        cp.keyId !== keyId ||
        Number.isNaN(statement.signedAt.getTime()) ||
        !signatureValid(publicKey, checkpointMessage(statement), cp.signature)
      )
        fail(
          LAST_LINE,
          null,
          `the signed checkpoint at position ${cp.seq} named by the manifest does not verify with key ${keyId}`,
        );
      checkpoints.set(cp.seq, { hash: cp.hash, signedAt: cp.signedAt });
    }
    for (const [seq, hash] of manifest.marks) marks.set(seq, hash);
    for (const p of manifest.withheld?.positions ?? []) withheld.add(p);
    result.manifest = manifest;

    // 2. The file from the top.
    const decoder = new StringDecoder('utf8');
    let started = false;
    let jsonBuf = '';
    let jsonLine = 0;
    let csv: CsvReader | null = null;
    const onJsonLine = (text: string) => {
      jsonLine++;
      if (!text.trim()) return;
      let r: ExportRecord;
      try {
        r = jsonRecord(text);
      } catch (err) {
        return fail(jsonLine, null, (err as Error).message);
      }
      onRecord(r, jsonLine);
    };
    for await (const chunk of fs.createReadStream(file)) {
      let text = decoder.write(chunk as Buffer);
      if (!started) {
        started = true;
        text = text.replace(/^\uFEFF/, '');
        if (text.trimStart().startsWith('{')) result.format = 'jsonl';
        else {
          let sawHeader = false;
          csv = new CsvReader((cells, line) => {
            if (!sawHeader) {
              sawHeader = true;
              if (cells.join(',') !== EXPORT_COLUMNS.join(','))
                fail(line, null, `the header is not ${EXPORT_COLUMNS.join(',')}`);
              return;
            }
            let r: ExportRecord;
            try {
              r = csvRecord(cells);
            } catch (err) {
              return fail(line, null, (err as Error).message);
            }
            onRecord(r, line);
          });
        }
      }
      if (csv) csv.push(text);
      else {
        jsonBuf += text;
        let nl: number;
        while ((nl = jsonBuf.indexOf('\n')) >= 0) {
          onJsonLine(jsonBuf.slice(0, nl));
          jsonBuf = jsonBuf.slice(nl + 1);
        }
      }
    }
    const rest = decoder.end();
    if (csv) {
      csv.push(rest);
      csv.end();
    } else if (jsonBuf + rest) onJsonLine(jsonBuf + rest);
    if (result.format !== manifest.format)
      fail(sawManifest, null, `the manifest signed a ${manifest.format} file, this is ${result.format}`);

    // 3. The whole against the manifest.
    const at = sawManifest;
    const tie = untied as { line: number; seq: number } | null;
    if (tie)
      fail(
        walked,
        null,
        `the file stops at position ${pos} without reaching a signed checkpoint, so nothing ties the entries from position ${tie.seq} (line ${tie.line}) on to the signed chain: lines after this one were removed`,
      );
    if (result.entries !== manifest.count)
      fail(
        at,
        null,
        `the manifest counts ${manifest.count} entries, the file holds ${result.entries}: lines were removed or added`,
      );
    if (manifest.count && (result.lastSeq !== manifest.last?.seq || result.lastHash !== manifest.last?.hash))
      fail(at, null, `the file's last entry is not the one the manifest signed (position ${manifest.last?.seq})`);
    if (entries.digest('hex') !== manifest.entriesSha256)
      fail(at, null, 'the file’s entries are not the ones the manifest signed: an entry was replaced');
  } catch (err) {
    if (!(err instanceof Stop)) {
      result.ok = false;
      result.failure = { line: 0, seq: null, id: null, reason: (err as Error).message };
    }
  }
  if (result.failure?.line === LAST_LINE) result.failure.line = countLines(file);
  return result;
}
