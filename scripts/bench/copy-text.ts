/**
 * A value in COPY's text format (`COPY … FROM STDIN`): backslash, tab, newline and carriage
 * return escaped; null is `\N`. Shared by the benchmarks' COPY seeders.
 */
export const copyText = (v: string | null) =>
  v === null
    ? '\\N'
    : v.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
