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

/*
 * CSV cells are neutralised against spreadsheet formulas like the executions export
 * (lib/executions/csv.ts: a trigger at the start or after any separator gets an apostrophe), with
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
