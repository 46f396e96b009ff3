/**
 * JSON with object keys sorted: the content hash must not depend on key order, because data
 * read back from JSONB (stored steps and rules reused by a backfill) comes back reordered.
 *
 * The output is exactly that of the former definition, so stored content hashes stay valid:
 *   JSON.stringify(value, (_k, v) => (plain object ? Object.fromEntries(sorted entries) : v))
 * That is: keys sorted by UTF-16 code units, except that array-index keys ("0", "17") come
 * first in numeric order (as they do in any rebuilt object); undefined, functions and symbols
 * left out of objects and written as null in arrays; non-finite numbers as null; toJSON honoured.
 * Written out by hand because the replacer rebuilt every object of a ~12 kB body (result,
 * steps, rules) for each ingest, at about twice the cost. tests/unit/sync/canonical-json.test.ts
 * checks it against the former definition.
 */
export function canonicalJson(value: unknown): string {
  return serialize(value) as string;
}

/** Characters for which JSON.stringify writes more than the character itself. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
const quote = (s: string) => (NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`);
const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;
const isArrayIndex = (k: string) => {
  const c = k.charCodeAt(0);
  return c >= 48 && c <= 57 && ARRAY_INDEX.test(k) && Number(k) < 4294967295;
};
/** `"key":` of the keys seen so far (a body has a few hundred distinct ones). */
const quotedKeys = new Map<string, string>();
const quoteKey = (k: string) => {
  let q = quotedKeys.get(k);
  if (q === undefined) {
    q = `${quote(k)}:`;
    if (quotedKeys.size < 10_000) quotedKeys.set(k, q);
  }
  return q;
};

function serialize(v: unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return quote(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return JSON.stringify(v); // throws, as JSON.stringify does
    case 'object': {
      if (v === null) return 'null';
      if (Array.isArray(v)) {
        let out = '[';
        for (let i = 0; i < v.length; i++) out += (i ? ',' : '') + (serialize(v[i]) ?? 'null');
        return `${out}]`;
      }
      if (typeof (v as { toJSON?: unknown }).toJSON === 'function')
        return serialize((v as { toJSON: () => unknown }).toJSON());
      const o = v as Record<string, unknown>;
      // Own enumerable keys list array indices first, in numeric order: keep them there, sort the rest.
      const keys = Object.keys(o);
      let indices = 0;
      while (indices < keys.length && isArrayIndex(keys[indices])) indices++;
      if (indices) for (const k of keys.splice(indices).sort()) keys.push(k);
      else keys.sort();
      let out = '{';
      for (const k of keys) {
        const s = serialize(o[k]);
        if (s !== undefined) out += (out.length > 1 ? ',' : '') + quoteKey(k) + s;
      }
      return `${out}}`;
    }
    default:
      return undefined;
  }
}
