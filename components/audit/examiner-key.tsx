/**
 * What an examiner needs to check an export without Verdict: the public half of the checkpoint
 * key (the same as `npm run audit -- public-key` prints) and the standalone script that uses it.
 * Public by nature; shown to the managers who make exports, who hand both to the examiner.
 */
export function ExaminerKey({ pem, keyId }: { pem: string; keyId: string }) {
  return (
    <section aria-labelledby="examiner-key" className="mt-3 border-t border-border pt-3 text-xs">
      <h3 id="examiner-key" className="text-sm font-medium">
        Public key for examiners <span className="font-mono text-muted-fg">({keyId})</span>
      </h3>
      <p className="mt-1 text-muted-fg">
        Every export ends with a manifest signed with this key, tied to signed checkpoints of the chain. An examiner
        checks a file offline with{' '}
        <code>node verify-audit-export.mjs &lt;file&gt; --public-key verdict-audit-key.pem</code> (the script is{' '}
        <code>docs/examiner/verify-audit-export.mjs</code>, Node only) or <code>npm run audit -- verify-export</code>.
      </p>
      <pre
        className="mt-2 overflow-x-auto rounded border border-border bg-muted/30 p-2 font-mono"
        data-testid="audit-public-key"
        aria-label="Public key (PEM)"
        tabIndex={0}
      >
        {pem}
      </pre>
      <a
        className="mt-1 inline-block text-primary underline"
        download="verdict-audit-key.pem"
        href={`data:application/x-pem-file;base64,${Buffer.from(pem).toString('base64')}`}
      >
        Download the public key (PEM)
      </a>
    </section>
  );
}
