'use client';
import * as React from 'react';

/**
 * A download that says its refusal in place. The export routes answer `check=1` with 204 when the
 * request would give a file, or with their JSON problem; only then does the browser fetch the file
 * itself (streamed to disk, not held in memory here). A bad request thus shows its sentence next
 * to the button, with the form as it was, instead of a raw JSON page or a downloaded error file.
 */
export function useCheckedDownload() {
  const [error, setError] = React.useState<string | null>(null);
  const [checking, start] = React.useTransition();
  const download = (href: string) =>
    start(async () => {
      const url = new URL(href, window.location.href);
      url.searchParams.set('check', '1');
      try {
        const res = await fetch(url, { cache: 'no-store' });
        if (res.ok) {
          setError(null);
          window.location.assign(href);
          return;
        }
        const body = (await res.json().catch(() => null)) as { detail?: string } | null;
        setError(body?.detail ?? `The export was refused (HTTP ${res.status}).`);
      } catch {
        setError('Verdict could not be reached. Check the connection and try again.');
      }
    });
  return { download, error, checking, clear: () => setError(null) };
}
