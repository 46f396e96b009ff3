import type { ChainFields } from './chain';

/**
 * The audit export's two formats, written by the export route and read back by the offline
 * verifier (export-file.ts). Every field is the stored text the chain hashes (`at` with
 * microseconds, `details` as the stored JSON text), so a file can be checked without the database.
 */
export const EXPORT_COLUMNS = [
  'seq',
  'id',
  'at',
  'actor_id',
  'actor_email',
  'action',
  'target_type',
  'target_id',
  'outcome',
  'ip',
  'details',
  'prev_hash',
  'hash',
] as const;

export interface ExportEntry extends ChainFields {
  id: string;
  prevHash: string;
  hash: string;
}

const cells = (e: ExportEntry): (string | null)[] => [
  e.seq,
  e.id,
  e.at,
  e.actorId,
  e.actorEmail,
  e.action,
  e.targetType,
  e.targetId,
  e.outcome,
  e.ip,
  e.details,
  e.prevHash,
  e.hash,
];

/** A row of `STORED_ENTRY_SQL` (chain.ts), read in array mode. */
export const entryFromRow = (c: (string | null)[]): ExportEntry => ({
  seq: c[0]!,
  id: c[1]!,
  at: c[2]!,
  actorId: c[3],
  actorEmail: c[4],
  action: c[5]!,
  targetType: c[6],
  targetId: c[7],
  outcome: c[8]!,
  ip: c[9],
  details: c[10],
  prevHash: c[11]!,
  hash: c[12]!,
});

export function fromCells(c: (string | null)[]): ExportEntry {
  const req = (v: string | null, name: string) => {
    if (v === null) throw new Error(`${name} is empty`);
    return v;
  };
  return {
    seq: req(c[0], 'seq'),
    id: req(c[1], 'id'),
    at: req(c[2], 'at'),
    actorId: c[3],
    actorEmail: c[4],
    action: req(c[5], 'action'),
    targetType: c[6],
    targetId: c[7],
    outcome: req(c[8], 'outcome'),
    ip: c[9],
    details: c[10],
    prevHash: req(c[11], 'prev_hash'),
    hash: req(c[12], 'hash'),
  };
}

/** One JSON line; seq and id as numbers, every other field as the stored text or null. */
export function jsonLine(e: ExportEntry): string {
  const o: Record<string, string | number | null> = {};
  cells(e).forEach((v, i) => (o[EXPORT_COLUMNS[i]] = i < 2 ? Number(v) : v));
  return `${JSON.stringify(o)}\n`;
}

export function entryFromJson(o: Record<string, unknown>): ExportEntry {
  return fromCells(
    EXPORT_COLUMNS.map((k, i) => {
      const v = o[k];
      if (v === null || v === undefined) return null;
      if (i < 2 ? typeof v !== 'number' : typeof v !== 'string') throw new Error(`${k} has the wrong type`);
      return String(v);
    }),
  );
}

/**
 * Entries a filtered export leaves out, given by the SHA-256 of their canonical content (hex, 64
 * characters each, in position order), so that a verifier can follow the chain through them to
 * the next entry or signed checkpoint without seeing what they say. At most `STRETCH_MAX` per
 * record: a spreadsheet cell holds 32,767 characters.
 */
export interface StretchRecord {
  first: number;
  last: number;
  digests: string;
}
export const STRETCH_MAX = 500;

export interface ManifestCheckpoint {
  seq: number;
  hash: string;
  signedAt: string;
  keyId: string;
  signature: string;
}

/** The signed summary that ends every export (lib/evidence/README.md, "Export"). */
export interface ExportManifest {
  version: string;
  /** A period export holds every entry between its first and last position; a filtered one some. */
  kind: 'period' | 'filtered';
  filter: { from: string | null; to: string | null; user: string | null; execution: string | null };
  format: 'csv' | 'jsonl';
  exportedAt: string;
  exportedBy: { id: string; email: string };
  keyId: string;
  count: number;
  first: { seq: number; hash: string } | null;
  last: { seq: number; hash: string } | null;
  /** SHA-256 over "<seq>:<hash>\n" of every entry of the file, in order. */
  entriesSha256: string;
  /** The hash of every `every`-th entry (the 1st, the every+1-th, …) and of the last, as [seq, hash]. */
  every: number;
  marks: Array<[number, string]>;
  /** The signed checkpoints the file's entries are tied to. */
  checkpoints: ManifestCheckpoint[];
  /**
   * Entries the file gives by content hash only, because they carry what a blind QA review seals
   * for the exporter (lib/qa/seal.ts); absent when none.
   */
  withheld?: { count: number; positions: number[]; why: string };
}

export const stretchJsonLine = (r: StretchRecord) =>
  `${JSON.stringify({ stretch: [r.first, r.last], content_sha256: r.digests })}\n`;
export const stretchCsvLine = (r: StretchRecord) => csvLine(['#stretch', String(r.first), String(r.last), r.digests]);

/** The manifest's JSON text goes into the file as it was signed, byte for byte. */
export const manifestJsonLine = (text: string, signature: string) =>
  `{"manifest":${text},"signature":"${signature}"}\n`;
export const manifestCsvLine = (text: string, signature: string) => csvLine(['#manifest', text, signature]);

export type ExportRecord =
  | { kind: 'entry'; entry: ExportEntry }
  | { kind: 'stretch'; stretch: StretchRecord }
  | { kind: 'manifest'; text: string; signature: string };

const MANIFEST_LINE = /^\{"manifest":(\{.*\}),"signature":"([A-Za-z0-9+/]+={0,2})"\}\s*$/;
const whole = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : null);

function stretchOf(first: unknown, last: unknown, digests: unknown): StretchRecord {
  const a = whole(typeof first === 'string' && /^\d+$/.test(first) ? Number(first) : first);
  const b = whole(typeof last === 'string' && /^\d+$/.test(last) ? Number(last) : last);
  if (a === null || b === null || b < a) throw new Error('a stretch needs a first and a last position');
  if (typeof digests !== 'string' || !/^[0-9a-f]*$/.test(digests) || digests.length !== (b - a + 1) * 64)
    throw new Error(
      `a stretch of positions ${a} to ${b} needs ${b - a + 1} content hashes of 64 hexadecimal characters`,
    );
  return { first: a, last: b, digests };
}

/** One line of a JSON lines export. */
export function jsonRecord(text: string): ExportRecord {
  const m = MANIFEST_LINE.exec(text);
  if (m) return { kind: 'manifest', text: m[1], signature: m[2] };
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(text);
  } catch {
    throw new Error('not a JSON object');
  }
  if (o === null || typeof o !== 'object') throw new Error('not a JSON object');
  if ('manifest' in o) throw new Error('a manifest line not in the form it is signed in');
  if ('stretch' in o) {
    const [a, b] = Array.isArray(o.stretch) ? o.stretch : [];
    return { kind: 'stretch', stretch: stretchOf(a, b, o.content_sha256) };
  }
  return { kind: 'entry', entry: entryFromJson(o) };
}

/** One record of a CSV export (after the header). */
export function csvRecord(c: (string | null)[]): ExportRecord {
  if (c[0] === '#manifest') {
    if (c.length !== 3 || !c[1] || !c[2]) throw new Error('a manifest record needs its text and its signature');
    return { kind: 'manifest', text: c[1], signature: c[2] };
  }
  if (c[0] === '#stretch') {
    if (c.length !== 4) throw new Error('a stretch record needs 4 cells');
    return { kind: 'stretch', stretch: stretchOf(c[1], c[2], c[3]) };
  }
  if (c.length !== EXPORT_COLUMNS.length)
    throw new Error(`${c.length} cells where ${EXPORT_COLUMNS.length} are expected`);
  return { kind: 'entry', entry: fromCells(c) };
}

/*
 * CSV cells are neutralised against spreadsheet formulas like the executions export
 * (lib/csv.ts: a trigger at the start or after any separator gets an apostrophe), with
 * one addition that makes it reversible, so the verifier can restore the exact hashed text: an
 * apostrophe already standing where one would be inserted is doubled, and a cell that starts
 * with a tab or carriage return gets one in front.
 */
const INSERT_AT = /(^|[,;|\t\r\n])(\s*)(?=[=+\-@'])/g;
const REMOVE_AT = /(^|[,;|\t\r\n])(\s*)'(?=[=+\-@'])/g;

export function neutralise(s: string): string {
  const t = s.replace(INSERT_AT, "$1$2'");
  return /^[\t\r]/.test(t) ? `'${t}` : t;
}

export function restore(s: string): string {
  const t = /^'[\t\r]/.test(s) ? s.slice(1) : s;
  return t.replace(REMOVE_AT, '$1$2');
}

/** NULL is an empty cell, an empty string is `""`: the chain tells them apart, so the file does too. */
export function csvCell(v: string | null): string {
  if (v === null) return '';
  const s = neutralise(v);
  return s === '' || /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvLine(e: ExportEntry | readonly string[]): string {
  const values = Array.isArray(e) ? (e as string[]) : cells(e as ExportEntry);
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** The CSV file's header line (with the byte-order mark spreadsheets need for UTF-8). */
export const CSV_HEADER = `\uFEFF${EXPORT_COLUMNS.join(',')}\r\n`;

/**
 * A streaming CSV reader (RFC 4180: quoted cells, doubled quotes, CR LF or LF). Feed it chunks;
 * it calls `onRecord` with each record's cells (null for an unquoted empty cell) and the line
 * the record starts on.
 */
export class CsvReader {
  private cell = '';
  private quoted = false;
  private inQuotes = false;
  private afterQuote = false;
  private record: (string | null)[] = [];
  private line = 1;
  private recordLine = 1;
  private started = false;
  private skipLf = false;

  constructor(private onRecord: (cells: (string | null)[], line: number) => void) {}

  private endCell() {
    this.record.push(this.quoted || this.cell !== '' ? restore(this.cell) : null);
    this.cell = '';
    this.quoted = false;
    this.afterQuote = false;
  }

  private endRecord() {
    this.endCell();
    const r = this.record;
    this.record = [];
    if (!(r.length === 1 && r[0] === null)) this.onRecord(r, this.recordLine);
    this.recordLine = this.line;
  }

  push(chunk: string) {
    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk[i];
      if (this.skipLf) {
        this.skipLf = false;
        if (ch === '\n') continue;
      }
      if (!this.started) {
        this.started = true;
        if (ch === '\uFEFF') continue;
      }
      if (this.inQuotes) {
        if (ch === '"') {
          this.inQuotes = false;
          this.afterQuote = true;
        } else {
          if (ch === '\n') this.line++;
          this.cell += ch;
        }
        continue;
      }
      if (ch === '"') {
        if (this.afterQuote) this.cell += '"';
        else if (this.cell !== '') throw new Error(`line ${this.line}: a quote inside an unquoted cell`);
        this.inQuotes = true;
        this.quoted = true;
        this.afterQuote = false;
        continue;
      }
      this.afterQuote = false;
      if (ch === ',') this.endCell();
      else if (ch === '\r' || ch === '\n') {
        this.skipLf = ch === '\r';
        this.line++;
        this.endRecord();
      } else this.cell += ch;
    }
  }

  end() {
    if (this.inQuotes) throw new Error(`line ${this.recordLine}: a quoted cell is not closed`);
    if (this.cell !== '' || this.record.length) this.endRecord();
  }
}
