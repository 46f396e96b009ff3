import { Badge } from '@/components/ui/badge';
import { formatDate } from '@/lib/format';
import { isMasked } from '@/lib/pii/mask';
import { cn } from '@/lib/utils';
import { LocalTime } from '@/components/time/local-time';

/**
 * Any JSON from the service as labelled fields: dates formatted, MATCH-style values as badges,
 * nested objects as nested field lists, arrays of objects as small tables. Text is always
 * rendered as text (React escapes it), so a value such as `<img onerror=…>` shows literally.
 */

const MATCH_TONE: Record<string, 'ok' | 'warn' | 'reject' | 'neutral'> = {
  MATCH: 'ok',
  NO_MATCH: 'reject',
  NOT_MATCH: 'reject',
  PARTIAL_MATCH: 'warn',
  NOT_POSSIBLE: 'neutral',
  PASSED: 'ok',
  WARNING: 'warn',
  REJECTED: 'reject',
  NOT_EXECUTED: 'neutral',
  DONE: 'ok',
  PENDING: 'warn',
  ERROR: 'reject',
};

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** "dateOfBirth" -> "Date of birth", "kyb_source" -> "Kyb source", "ipRiskScore" -> "IP risk score". */
export function humanizeKey(key: string): string {
  const words = key
    .replace(/_/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .trim()
    .split(/\s+/);
  const acronyms = new Set([
    'ip',
    'id',
    'mrz',
    'nfc',
    'dob',
    'ssn',
    'cpf',
    'pep',
    'os',
    'url',
    'bin',
    'iban',
    'dl',
    'rai',
    'kyb',
    'kyc',
    'vpn',
    'isp',
    'cic',
    'rg',
    'pan',
  ]);
  return words
    .map((w, i) =>
      acronyms.has(w.toLowerCase()) ? w.toUpperCase() : i === 0 ? w[0].toUpperCase() + w.slice(1) : w.toLowerCase(),
    )
    .join(' ');
}

export function Scalar({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === '') return <span className="text-muted-fg">—</span>;
  if (typeof value === 'boolean') return <span>{value ? 'Yes' : 'No'}</span>;
  if (typeof value === 'number') return <span className="tabular-nums">{String(value)}</span>;
  const s = String(value);
  if (isMasked(s))
    return (
      <span className="font-mono text-muted-fg" title="Masked: reveal to see">
        {s}
      </span>
    );
  if (MATCH_TONE[s]) return <Badge tone={MATCH_TONE[s]}>{s}</Badge>;
  if (DATE_RE.test(s)) return <time dateTime={s}>{formatDate(s)}</time>;
  if (DATETIME_RE.test(s) && !Number.isNaN(Date.parse(s))) return <LocalTime value={s} />;
  return <span className="break-words">{s}</span>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function ArrayValue({ items, depth }: { items: unknown[]; depth: number }) {
  if (!items.length) return <span className="text-muted-fg">None</span>;
  if (items.every((x) => !isObject(x) && !Array.isArray(x))) {
    return (
      <ul className="flex flex-wrap gap-1">
        {items.map((x, i) => (
          <li key={i} className={cn(typeof x === 'string' && x.length === 36 && 'font-mono text-xs')}>
            <Scalar value={x} />
            {i < items.length - 1 && !(typeof x === 'string' && MATCH_TONE[x]) ? <span aria-hidden>,</span> : null}
          </li>
        ))}
      </ul>
    );
  }
  if (items.every(isObject)) {
    const cols = [...new Set(items.flatMap((x) => Object.keys(x as object)))];
    return (
      <div tabIndex={0} className="overflow-x-auto rounded border border-border">
        <table className="w-full text-xs">
          <thead className="bg-muted/60 text-left text-muted-fg">
            <tr>
              {cols.map((c) => (
                <th key={c} scope="col" className="px-2 py-1 font-medium">
                  {humanizeKey(c)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {items.map((x, i) => (
              <tr key={i} className="border-t border-border align-top">
                {cols.map((c) => (
                  <td key={c} className="px-2 py-1">
                    <Value value={(x as Record<string, unknown>)[c]} depth={depth + 1} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }
  return (
    <ol className="list-decimal pl-5">
      {items.map((x, i) => (
        <li key={i}>
          <Value value={x} depth={depth + 1} />
        </li>
      ))}
    </ol>
  );
}

function Value({ value, depth }: { value: unknown; depth: number }) {
  if (Array.isArray(value)) return <ArrayValue items={value} depth={depth} />;
  if (isObject(value))
    return depth > 6 ? (
      <code className="text-xs">{JSON.stringify(value)}</code>
    ) : (
      <Fields data={value} depth={depth + 1} />
    );
  return <Scalar value={value} />;
}

/** Labelled fields of an object; nested objects nest, indented. */
export function Fields({
  data,
  depth = 0,
  className,
}: {
  data: Record<string, unknown>;
  depth?: number;
  className?: string;
}) {
  const entries = Object.entries(data);
  if (!entries.length) return <span className="text-muted-fg">Empty</span>;
  return (
    <dl
      className={cn(
        'grid grid-cols-[minmax(8rem,max-content)_1fr] gap-x-4 gap-y-1 text-sm',
        depth > 0 && 'border-l border-border pl-3',
        className,
      )}
    >
      {entries.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-muted-fg">{humanizeKey(k)}</dt>
          <dd className="min-w-0">
            <Value value={v} depth={depth} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Any value from the service: an object as fields, anything else as it is. */
export function DataView({ value }: { value: unknown }) {
  if (isObject(value)) return <Fields data={value} />;
  return <Value value={value} depth={0} />;
}
