import fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { entryHash } from './chain';
import { CsvReader, entryFromJson, EXPORT_COLUMNS, fromCells, type ExportEntry } from './export-format';

export interface ExportFileResult {
  ok: boolean;
  format: 'csv' | 'jsonl';
  entries: number;
  /** Places where the file skips positions (a user's or an execution's export takes some entries only). */
  gaps: number;
  firstSeq: number | null;
  lastSeq: number | null;
  lastHash: string | null;
  failure: { line: number; seq: number | null; id: number | null; reason: string } | null;
}

/**
 * Verifies an audit export offline (`npm run audit -- verify-export <file>`): every entry's
 * content must give its hash, and where two entries are neighbours in the chain the second's
 * previous hash must be the first's hash. Names the first line that does not hold.
 */
export async function verifyExportFile(file: string): Promise<ExportFileResult> {
  const result: ExportFileResult = {
    ok: true,
    format: 'csv',
    entries: 0,
    gaps: 0,
    firstSeq: null,
    lastSeq: null,
    lastHash: null,
    failure: null,
  };
  class Stop extends Error {}
  const fail = (line: number, e: Partial<ExportEntry> | null, reason: string): never => {
    result.ok = false;
    result.failure = { line, seq: e?.seq ? Number(e.seq) : null, id: e?.id ? Number(e.id) : null, reason };
    throw new Stop();
  };
  const check = (e: ExportEntry, line: number) => {
    const seq = Number(e.seq);
    if (!/^[0-9a-f]{64}$/.test(e.prevHash) || !/^[0-9a-f]{64}$/.test(e.hash))
      fail(line, e, 'its hashes are not 64 hexadecimal characters');
    if (entryHash(e.prevHash, e) !== e.hash) fail(line, e, 'its content does not give its hash: the line was changed');
    if (result.lastSeq !== null) {
      if (seq <= result.lastSeq) fail(line, e, `position ${seq} comes after position ${result.lastSeq}: out of order`);
      if (seq === result.lastSeq + 1 && e.prevHash !== result.lastHash)
        fail(
          line,
          e,
          'its previous hash is not the hash of the line before it: a line before it was changed or replaced',
        );
      if (seq > result.lastSeq + 1) result.gaps++;
    } else result.firstSeq = seq;
    result.lastSeq = seq;
    result.lastHash = e.hash;
    result.entries++;
  };

  const decoder = new StringDecoder('utf8');
  let header = true;
  let jsonBuf = '';
  let jsonLine = 0;
  let csv: CsvReader | null = null;
  const onJsonLine = (text: string) => {
    jsonLine++;
    if (!text.trim()) return;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(text);
    } catch {
      return fail(jsonLine, null, 'not a JSON object');
    }
    let e: ExportEntry;
    try {
      e = entryFromJson(o);
    } catch (err) {
      return fail(jsonLine, o as Partial<ExportEntry>, (err as Error).message);
    }
    check(e, jsonLine);
  };
  try {
    for await (const chunk of fs.createReadStream(file)) {
      let text = decoder.write(chunk as Buffer);
      if (header) {
        header = false;
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
            if (cells.length !== EXPORT_COLUMNS.length)
              fail(line, null, `${cells.length} cells where ${EXPORT_COLUMNS.length} are expected`);
            let e: ExportEntry;
            try {
              e = fromCells(cells);
            } catch (err) {
              return fail(line, null, (err as Error).message);
            }
            check(e, line);
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
  } catch (err) {
    if (!(err instanceof Stop)) {
      result.ok = false;
      result.failure = { line: 0, seq: null, id: null, reason: (err as Error).message };
    }
  }
  return result;
}
