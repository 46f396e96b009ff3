import { DecisionBadge } from '@/components/executions/badges';
import type { CapabilityGroup } from '@/lib/executions/result';
import { DataView, Fields } from './data-view';
import { DecisionIcon, Section } from '@/components/ui/section';

function CredentialChips({ credentials }: { credentials: CapabilityGroup['entries'][number]['credentials'] }) {
  if (!credentials.length) return <span className="text-xs text-muted-fg">no credential named</span>;
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Credentials used">
      {credentials.map((c, i) => (
        <li key={`${c.id}-${i}`} className="rounded bg-muted px-1.5 py-0.5 text-xs" title={c.id ?? undefined}>
          {c.category ?? c.label ?? 'credential'}{' '}
          <span className="font-mono text-[10px] text-muted-fg">{c.id?.slice(0, 8)}</span>
        </li>
      ))}
    </ul>
  );
}

/** Each capability array of the result, every entry with its decision, credentials, data and raw vendor response. */
export function CapabilitiesSection({ groups }: { groups: CapabilityGroup[] }) {
  return (
    <Section
      id="capabilities"
      title="Capabilities"
      description={`${groups.length} capabilit${groups.length === 1 ? 'y' : 'ies'} in this result, in dependency order.`}
    >
      {groups.length === 0 ? (
        <p className="text-sm text-muted-fg">
          The result has no capability results (the execution did not finish, or its data was wiped).
        </p>
      ) : (
        <div className="flex flex-col gap-2">
          {groups.map((g) => (
            <details
              key={g.name}
              id={`cap-${g.name}`}
              className="group scroll-mt-20 rounded-md border border-border"
              open={Boolean(g.worst && g.worst !== 'PASSED')}
            >
              <summary className="flex cursor-pointer list-none flex-wrap items-center gap-2 px-3 py-2 hover:bg-muted/50 [&::-webkit-details-marker]:hidden">
                <span aria-hidden className="text-muted-fg transition-transform group-open:rotate-90">
                  ▸
                </span>
                <DecisionIcon type={g.worst} />
                <span className="text-sm font-medium">{g.title}</span>
                <code className="font-mono text-[11px] text-muted-fg">{g.name}</code>
                {!g.known ? (
                  <span className="rounded bg-primary/10 px-1.5 text-[10px] font-medium uppercase text-primary">
                    not in the spec
                  </span>
                ) : null}
                <span className="ml-auto flex items-center gap-2 text-xs text-muted-fg">
                  {g.entries.length} entr{g.entries.length === 1 ? 'y' : 'ies'} <DecisionBadge type={g.worst} />
                </span>
              </summary>
              <div className="flex flex-col gap-3 border-t border-border px-3 py-3">
                {g.what ? <p className="text-xs text-muted-fg">{g.what}</p> : null}
                {g.entries.map((e, i) => (
                  <article
                    key={e.id ?? i}
                    className="rounded-md bg-muted/30 p-3"
                    aria-label={`${g.title} entry ${i + 1}`}
                  >
                    <div className="mb-2 flex flex-wrap items-center gap-2">
                      <DecisionBadge type={e.decisionType} label={e.label} />
                      <CredentialChips credentials={e.credentials} />
                      {e.id ? <span className="ml-auto font-mono text-[10px] text-muted-fg">{e.id}</span> : null}
                    </div>
                    {e.explanation ? (
                      <p className="mb-2 text-sm">{e.explanation}</p>
                    ) : e.label ? (
                      <p className="mb-2 text-sm text-muted-fg">
                        Label <code className="font-mono">{e.label}</code> as sent by the service.
                      </p>
                    ) : null}
                    {Object.keys(e.extra).length ? <Fields data={e.extra} className="mb-2" /> : null}
                    {e.data !== undefined && e.data !== null ? (
                      <div className="rounded border border-border bg-card p-2">
                        <DataView value={e.data} />
                      </div>
                    ) : null}
                    {e.vendor ? (
                      <details className="mt-2">
                        <summary className="cursor-pointer text-xs text-muted-fg hover:text-fg">
                          Raw response from {e.vendor.name ?? 'the vendor'}
                        </summary>
                        <pre tabIndex={0} className="mt-1 max-h-72 overflow-auto rounded bg-card p-2 text-[11px]">
                          {JSON.stringify(e.vendor.response, null, 2)}
                        </pre>
                      </details>
                    ) : null}
                  </article>
                ))}
              </div>
            </details>
          ))}
        </div>
      )}
    </Section>
  );
}
