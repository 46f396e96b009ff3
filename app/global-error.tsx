'use client';
import { DATABASE_OUTAGE_DIGEST, DATABASE_OUTAGE_TEXT } from '@/lib/db/outage';

export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const outage = error.digest === DATABASE_OUTAGE_DIGEST;
  return (
    <html lang="en">
      <body style={{ fontFamily: 'system-ui, sans-serif', padding: '4rem', textAlign: 'center' }}>
        <h1>{outage ? DATABASE_OUTAGE_TEXT.title : 'Verdict could not load'}</h1>
        <p>{outage ? DATABASE_OUTAGE_TEXT.detail : 'Something went wrong while showing this page.'}</p>
        {/* After an outage the whole page is asked for again: the root layout itself failed. */}
        <button type="button" onClick={outage ? () => window.location.reload() : reset}>
          Try again
        </button>
      </body>
    </html>
  );
}
