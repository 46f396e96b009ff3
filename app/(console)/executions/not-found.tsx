import Link from 'next/link';

// Rendered inside the console's <main>: a section, not a second main landmark.
export default function ExecutionNotFound() {
  return (
    <section
      className="flex min-h-[50vh] flex-col items-center justify-center gap-3 px-6 text-center"
      aria-labelledby="nf-title"
    >
      <p className="font-mono text-sm text-muted-fg">404</p>
      <h1 id="nf-title" className="text-2xl font-semibold">
        Execution not found
      </h1>
      <p className="max-w-lg text-sm text-muted-fg">
        No execution with this id is in Verdict’s cache. It may not have arrived from the service yet, or the link is
        wrong.
      </p>
      <Link className="text-primary underline" href="/executions">
        Back to the executions
      </Link>
    </section>
  );
}
