import { Section } from '@/components/executions/detail/section';

/** The case block of the detail page, beside the feedback form: resolve, then the notes thread. */
export function CaseSection({ resolve, notes }: { resolve: React.ReactNode; notes: React.ReactNode }) {
  return (
    <Section id="case" title="Case" description="Resolve with an outcome and a reason; notes stay in Verdict.">
      {resolve ? <div className="border-b border-border pb-4">{resolve}</div> : null}
      <div className={resolve ? 'pt-4' : undefined}>
        <h3 className="mb-2 text-sm font-semibold">Notes</h3>
        {notes}
      </div>
    </Section>
  );
}
