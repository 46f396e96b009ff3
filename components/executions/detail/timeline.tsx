import { DecisionBadge } from '@/components/executions/badges';
import { capabilityTitle } from '@/lib/executions/glossary';
import type { RuleExecutionView, StepView } from '@/lib/executions/result';
import { DecisionIcon, Section } from '@/components/ui/section';
import { LocalTime } from '@/components/time/local-time';

export function StepsSection({ steps }: { steps: StepView[] }) {
  return (
    <Section id="steps" title="Steps" description="The workflow's steps in order, with the checks each one ran.">
      {steps.length ? (
        <ol className="flex flex-col">
          {steps.map((s, i) => (
            <li key={`${s.id}-${i}`} className="relative flex gap-3 pb-4 last:pb-0">
              {i < steps.length - 1 ? (
                <span aria-hidden className="absolute left-[7px] top-5 h-[calc(100%-1rem)] w-px bg-border" />
              ) : null}
              <DecisionIcon type={s.decisionType} className="mt-0.5" />
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="text-xs text-muted-fg">Step {s.id ?? i + 1}</span>
                  <span className="font-mono text-sm font-medium">{s.name ?? 'unnamed'}</span>
                  <DecisionBadge type={s.decisionType} label={s.label} />
                </div>
                {s.capabilities.length ? (
                  <ul className="mt-1 flex flex-wrap gap-1">
                    {s.capabilities.map((c) => (
                      <li
                        key={c.id}
                        className="inline-flex items-center gap-1 rounded border border-border px-1.5 py-0.5 text-xs"
                        title={c.id}
                      >
                        <DecisionIcon type={c.decisionType} className="h-3 w-3" />
                        {c.capability ? (
                          <a href={`#cap-${c.capability}`} className="hover:underline">
                            {capabilityTitle(c.capability)}
                          </a>
                        ) : (
                          <span className="font-mono text-muted-fg">{c.id.slice(0, 8)}</span>
                        )}
                        {c.category ? <span className="text-muted-fg">· {c.category}</span> : null}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </div>
            </li>
          ))}
        </ol>
      ) : (
        <p className="text-sm text-muted-fg">No steps were retrieved for this execution.</p>
      )}
    </Section>
  );
}

export function RulesSection({ executions }: { executions: RuleExecutionView[] }) {
  return (
    <Section
      id="rules"
      title="Rule executions"
      description="Rulesets evaluated on this execution, their scores, and which rules matched."
    >
      {executions.length ? (
        <div className="flex flex-col gap-4">
          {executions.map((x, i) => (
            <div key={x.id ?? i} className="flex flex-col gap-3">
              <p className="text-xs text-muted-fg">
                Run <span className="font-mono">{x.id ?? i + 1}</span> · <LocalTime value={x.startedAt} /> →{' '}
                <LocalTime value={x.completedAt} />
              </p>
              {x.rulesets.map((rs, k) => (
                <article
                  key={`${rs.id}-${k}`}
                  className="rounded-md border border-border"
                  aria-label={`Ruleset ${rs.name ?? rs.id ?? k + 1}`}
                >
                  <header className="flex flex-wrap items-center gap-2 border-b border-border px-3 py-2">
                    <h3 className="text-sm font-medium">{rs.name ?? rs.id ?? 'Ruleset'}</h3>
                    <span className="font-mono text-[11px] text-muted-fg">
                      {rs.id}
                      {rs.version !== null ? ` v${rs.version}` : ''}
                    </span>
                    <span className="ml-auto text-sm">
                      score <strong className="tabular-nums">{rs.score ?? '—'}</strong>
                    </span>
                  </header>
                  <div className="p-3">
                    {rs.matched.length ? (
                      <table className="w-full text-sm">
                        <caption className="sr-only">Matched rules</caption>
                        <thead className="text-left text-xs text-muted-fg">
                          <tr>
                            <th scope="col" className="font-medium">
                              Matched rule
                            </th>
                            <th scope="col" className="font-medium">
                              Id
                            </th>
                            <th scope="col" className="text-right font-medium">
                              Score
                            </th>
                          </tr>
                        </thead>
                        <tbody>
                          {rs.matched.map((r, j) => (
                            <tr key={`${r.id}-${j}`} className="border-t border-border">
                              <td className="py-1">{r.name ?? '—'}</td>
                              <td className="py-1 font-mono text-xs text-muted-fg">
                                {r.id}
                                {r.version !== null ? ` v${r.version}` : ''}
                              </td>
                              <td className="py-1 text-right font-semibold tabular-nums">{r.score ?? '—'}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    ) : (
                      <p className="text-sm text-muted-fg">No rule matched.</p>
                    )}
                    {rs.notMatched.length ? (
                      <details className="mt-2">
                        <summary className="cursor-pointer text-xs text-muted-fg hover:text-fg">
                          {rs.notMatched.length} rule{rs.notMatched.length === 1 ? '' : 's'} not matched
                        </summary>
                        <ul className="mt-1 grid gap-x-4 text-xs sm:grid-cols-2">
                          {rs.notMatched.map((r, j) => (
                            <li key={`${r.id}-${j}`} className="flex justify-between gap-2 py-0.5">
                              <span>{r.name ?? r.id}</span>
                              <span className="tabular-nums text-muted-fg">{r.score ?? ''}</span>
                            </li>
                          ))}
                        </ul>
                      </details>
                    ) : null}
                  </div>
                </article>
              ))}
            </div>
          ))}
        </div>
      ) : (
        <p className="text-sm text-muted-fg">No rule executions were retrieved for this execution.</p>
      )}
    </Section>
  );
}
