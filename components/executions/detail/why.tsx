import { DecisionBadge } from '@/components/executions/badges';
import { RISK_BANDS, riskBandOf } from '@/lib/executions/risk';
import { blockedBy, rulesForCapability, type CapabilityGroup, type RuleRow } from '@/lib/executions/result';
import { explainLabel } from '@/lib/executions/glossary';
import { cn } from '@/lib/utils';
import { DecisionIcon, Section } from '@/components/ui/section';

const BAND_COLOR: Record<string, string> = { PASSED: 'bg-ok/70', WARNING: 'bg-warn/70', REJECTED: 'bg-reject/70' };

/** The risk score placed on the default bands (0–30 passed, 31–70 warning, 71–100 rejected). */
export function RiskBar({ score }: { score: number | null }) {
  const band = riskBandOf(score);
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-baseline gap-2">
        <span className="text-xs text-muted-fg">Risk score</span>
        <span className="text-2xl font-semibold tabular-nums">{score ?? '—'}</span>
        <span className="text-xs text-muted-fg">
          {score === null ? 'no score yet' : score < 0 ? 'not scored (-1): not executed' : `of 100 · ${band} band`}
        </span>
      </div>
      <div
        className="relative h-2.5 w-full max-w-md"
        role="img"
        aria-label={score === null || score < 0 ? 'No risk score' : `Risk score ${score} of 100, in the ${band} band`}
      >
        <div className="flex h-full overflow-hidden rounded-full">
          {RISK_BANDS.map((b) => (
            <div
              key={b.type}
              className={cn(
                BAND_COLOR[b.type],
                'h-full',
                score !== null && score >= 0 && band !== b.type && 'opacity-35',
              )}
              style={{ width: `${b.to - b.from + (b.from === 0 ? 1 : 0)}%` }}
            />
          ))}
        </div>
        {score !== null && score >= 0 ? (
          <div
            aria-hidden
            className="absolute -top-1 h-4.5 w-1 -translate-x-1/2 rounded bg-fg ring-2 ring-card"
            style={{ left: `${Math.min(100, Math.max(0, score))}%` }}
          />
        ) : null}
      </div>
      <div aria-hidden className="flex w-full max-w-md justify-between text-[10px] text-muted-fg">
        <span>0</span>
        <span>30</span>
        <span>70</span>
        <span>100</span>
      </div>
    </div>
  );
}

/**
 * One explanation: every check in the order they depend on each other, what its label means,
 * what stopped it when it did not run, and the rules that moved the score.
 */
export function WhyPane({
  decisionType,
  decisionLabel,
  riskScore,
  groups,
  rules,
}: {
  decisionType: string | null;
  decisionLabel: string | null;
  riskScore: number | null;
  groups: CapabilityGroup[];
  rules: RuleRow[];
}) {
  const concerns = groups.filter((g) => g.worst && g.worst !== 'PASSED' && g.worst !== 'NOT_EXECUTED');
  const skipped = groups.filter((g) => g.worst === 'NOT_EXECUTED');
  const scoring = rules.filter((r) => (r.score ?? 0) !== 0);
  const sum = scoring.reduce((a, r) => a + (r.score ?? 0), 0);
  const max = Math.max(1, ...scoring.map((r) => Math.abs(r.score ?? 0)));
  const topExplanation = explainLabel(decisionLabel);
  return (
    <Section
      id="why"
      title="Why"
      description="Every check in dependency order, what its result means, and the rules that set the score."
    >
      <div className="flex flex-col gap-5">
        <p className="text-sm">
          The service decided <DecisionBadge type={decisionType} />
          {decisionLabel && decisionLabel !== decisionType ? (
            <>
              {' '}
              with label <code className="font-mono text-xs">{decisionLabel}</code>
            </>
          ) : null}
          {riskScore !== null ? (
            <>
              {' '}
              and a risk score of <strong className="tabular-nums">{riskScore}</strong>
            </>
          ) : null}
          .
          {topExplanation && decisionLabel !== decisionType ? (
            <span className="text-muted-fg"> {topExplanation}</span>
          ) : null}
          {concerns.length ? (
            <>
              {' '}
              {concerns.length === 1 ? 'One check raised a concern' : `${concerns.length} checks raised concerns`}:{' '}
              {concerns.map((g) => `${g.title} (${g.worst})`).join(', ')}.
            </>
          ) : null}
          {skipped.length ? (
            <>
              {' '}
              {skipped.length === 1 ? 'One check' : `${skipped.length} checks`} did not run:{' '}
              {skipped.map((g) => g.title).join(', ')}.
            </>
          ) : null}
          {!concerns.length && !skipped.length ? (
            groups.length ? (
              <> Every check passed.</>
            ) : (
              <> The result carries no checks.</>
            )
          ) : null}
        </p>

        <ol className="flex flex-col" aria-label="Checks in dependency order">
          {groups.map((g, i) => {
            const related = rulesForCapability(g, rules, groups);
            const blockers = blockedBy(g, groups);
            return (
              <li key={g.name} className="relative flex gap-3 pb-4 last:pb-0">
                {i < groups.length - 1 ? (
                  <span aria-hidden className="absolute left-[7px] top-5 h-[calc(100%-1rem)] w-px bg-border" />
                ) : null}
                <DecisionIcon type={g.worst} className="mt-0.5" />
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <a href={`#cap-${g.name}`} className="text-sm font-medium hover:underline">
                      {g.title}
                    </a>
                    {!g.known ? (
                      <span className="rounded bg-primary/10 px-1.5 text-[10px] font-medium uppercase text-primary">
                        new to Verdict
                      </span>
                    ) : null}
                    <span className="sr-only">result</span>
                    <DecisionBadge type={g.worst} />
                  </div>
                  <ul className="mt-1 flex flex-col gap-0.5">
                    {g.entries.map((e, k) => (
                      <li key={e.id ?? k} className="text-sm text-muted-fg">
                        {g.entries.length > 1 ? (
                          <span className="mr-1 text-xs">
                            {e.credentials
                              .map((c) => c.category ?? c.label)
                              .filter(Boolean)
                              .join(' + ') || `#${k + 1}`}
                            :
                          </span>
                        ) : null}
                        <code className="font-mono text-xs text-fg">{e.label ?? e.decisionType ?? '—'}</code>
                        {' — '}
                        {e.explanation ?? (
                          <span className="italic">
                            a label Verdict has no description for yet; shown as the service sent it.
                          </span>
                        )}
                      </li>
                    ))}
                  </ul>
                  {blockers.length ? (
                    <p className="mt-1 text-xs text-muted-fg">
                      Did not run because{' '}
                      {blockers
                        .map((b) => `${b.title} ${b.worst === 'NOT_EXECUTED' ? 'did not run' : 'failed'}`)
                        .join(' and ')}
                      .
                    </p>
                  ) : null}
                  {related.length ? (
                    <ul className="mt-1 flex flex-wrap gap-1" aria-label={`Rules related to ${g.title}`}>
                      {related.map((r, k) => (
                        <li
                          key={`${r.rulesetId}-${r.id}-${k}`}
                          className="rounded border border-border px-1.5 py-0.5 text-xs"
                        >
                          {r.name ?? r.id}{' '}
                          <span className="font-semibold tabular-nums">
                            {(r.score ?? 0) > 0 ? `+${r.score}` : r.score}
                          </span>
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ol>

        <div>
          <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-muted-fg">Rules that set the score</h3>
          {scoring.length ? (
            <>
              <ul className="flex flex-col gap-1.5">
                {scoring.map((r, k) => (
                  <li
                    key={`${r.rulesetId}-${r.id}-${k}`}
                    className="grid grid-cols-[minmax(0,1fr)_8rem_3rem] items-center gap-3 text-sm"
                  >
                    <span className="truncate" title={`${r.id ?? ''} · ${r.rulesetName ?? r.rulesetId ?? ''}`}>
                      {r.name ?? r.id}
                    </span>
                    <span aria-hidden className="h-2 rounded-full bg-muted">
                      <span
                        className={cn(
                          'block h-2 rounded-full',
                          (r.score ?? 0) >= 70 ? 'bg-reject/80' : (r.score ?? 0) >= 30 ? 'bg-warn/80' : 'bg-primary/70',
                        )}
                        style={{ width: `${(Math.abs(r.score ?? 0) / max) * 100}%` }}
                      />
                    </span>
                    <span className="text-right font-semibold tabular-nums">
                      {(r.score ?? 0) > 0 ? `+${r.score}` : r.score}
                    </span>
                  </li>
                ))}
              </ul>
              <p className="mt-2 text-xs text-muted-fg">
                Sum of matched rule scores: <span className="tabular-nums">{sum}</span>
                {riskScore !== null && riskScore >= 0 ? (
                  <>
                    {' '}
                    · risk score {riskScore} (the service caps the score at 100 and keeps it within the decision&apos;s
                    band)
                  </>
                ) : null}
              </p>
            </>
          ) : (
            <p className="text-sm text-muted-fg">No matched rule carried a score.</p>
          )}
        </div>
      </div>
    </Section>
  );
}
