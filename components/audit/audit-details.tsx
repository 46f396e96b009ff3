/**
 * An audit entry's details as fields a person reads (name: value, nested values indented), not
 * one line of JSON running off the table's edge. The stored JSON is what the chain hashes; this
 * is only its display, and long values wrap.
 */
export function AuditDetails({ details }: { details: unknown }) {
  if (details === null || details === undefined) return null;
  if (typeof details !== 'object') return <span className="break-all">{String(details)}</span>;
  const entries = Array.isArray(details)
    ? details.map((v, i) => [String(i + 1), v] as const)
    : Object.entries(details as Record<string, unknown>);
  if (!entries.length) return null;
  return (
    <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-2 gap-y-0.5">
      {entries.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-muted-fg">{k}</dt>
          <dd className="min-w-0 break-words">
            {v !== null && typeof v === 'object' ? <AuditDetails details={v} /> : <Value v={v} />}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Value({ v }: { v: unknown }) {
  if (v === null || v === undefined || v === '') return <span className="text-muted-fg">—</span>;
  if (typeof v === 'boolean') return <>{v ? 'yes' : 'no'}</>;
  return <span className="break-all">{String(v)}</span>;
}
