/**
 * CSV for spreadsheets. Text from the service is data, never a formula: a cell starting with
 * = + - @ (or a tab or carriage return) gets a leading apostrophe, so a name such as
 * `=HYPERLINK(...)` or `<img src=x onerror=alert(1)>` arrives as the literal text it is.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvLine(cells: Array<string | number | boolean | null | undefined>): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
