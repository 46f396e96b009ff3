import { Section } from '@/components/ui/section';

/** The case block of the detail page, beside the feedback form: resolve, its QA review if sampled, the notes thread, the history. */
export function CaseSection({
  resolve,
  qa,
  notes,
  history,
}: {
  resolve: React.ReactNode;
  qa?: React.ReactNode;
  notes: React.ReactNode;
  history?: React.ReactNode;
}) {
  return (
    <Section id="case" title="Case" description="Resolve with an outcome and a reason; notes stay in Verdict.">
      {/* The blind review is the work waiting on a sampled case: it comes first, before the first
          resolution and its "Reopen with a reason", which are history by then. */}
      {qa ? <div className="border-b border-border pb-4">{qa}</div> : null}
      {resolve ? (
        <div className={qa ? 'border-b border-border py-4' : 'border-b border-border pb-4'}>{resolve}</div>
      ) : null}
      <div className={resolve ? 'pt-4' : undefined}>
        <h3 className="mb-2 text-sm font-semibold">Notes</h3>
        {notes}
      </div>
      {history ? (
        <div className="mt-4 border-t border-border pt-4">
          <h3 className="mb-2 text-sm font-semibold">History</h3>
          {history}
        </div>
      ) : null}
    </Section>
  );
}
