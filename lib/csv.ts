/**
 * CSV for spreadsheets. Text from the service is data, never a formula: a formula trigger
 * (= + - @, or a tab or carriage return) at the start of the cell gets a leading apostrophe, so
 * a name such as `=HYPERLINK(...)` or `<img src=x onerror=alert(1)>` arrives as the literal text
 * it is. A spreadsheet opened with another separator (`;` in many locales, tabs, pipes) splits
 * `a;=1+1` into a new cell that starts with `=`, so a trigger after any separator is
 * neutralised the same way (OWASP, CSV injection).
 */
const TRIGGER_AT_START = /^(\s*)([=+\-@\t\r])/;
const TRIGGER_AFTER_SEPARATOR = /([,;|\t\r\n]\s*)([=+\-@])/g;

export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let s = String(value);
  if (typeof value === 'string') s = s.replace(TRIGGER_AFTER_SEPARATOR, "$1'$2").replace(TRIGGER_AT_START, "'$1$2");
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvLine(cells: Array<string | number | boolean | null | undefined>): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
