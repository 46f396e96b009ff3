'use client';
import { Search, X } from 'lucide-react';
import { useRouter } from 'next/navigation';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { saveSearchAction } from '@/lib/actions/review';
import type { SearchNotice } from '@/lib/executions/queries';
import { useListNav } from './list-nav';

export const SEARCH_INPUT_ID = 'execution-search';

const NOTICES: Record<NonNullable<SearchNotice>, string> = {
  expired: 'This search link has expired: search again.',
  too_short: 'Type a whole name, a whole document number, or the start of a reference.',
  not_yours: 'This search link was saved by another user: open it on the list, where it runs as your own search.',
  rate_limited:
    'This search link was saved by another user, and running it counts as your own search: you have reached your searches for this minute. Wait a moment, then reload.',
};

/**
 * Free-text search. What is typed never goes into the URL as such: ids do, everything else is
 * stored on the server and the URL carries its token (see saveSearchAction).
 */
export function SearchBox({ term, notice }: { term: string | null; notice: SearchNotice }) {
  const { params, go } = useListNav();
  const router = useRouter();
  const initial = term ?? params.q ?? '';
  const [value, setValue] = React.useState(initial);
  const [error, setError] = React.useState<string | null>(null);
  const [saving, start] = React.useTransition();
  // A new search arriving from the URL (back button, a shared link) replaces what is typed.
  const [seen, setSeen] = React.useState(initial);
  if (seen !== initial) {
    setSeen(initial);
    setValue(initial);
  }

  function submit(text: string) {
    setError(null);
    start(async () => {
      const r = await saveSearchAction({ term: text });
      if (!r.ok) return setError(r.error);
      if (r.data.kind === 'execution') router.push(`/executions/${r.data.id}`);
      else if (r.data.kind === 'clear') go({ q: undefined, st: undefined });
      else if (r.data.kind === 'id') go({ q: r.data.q, st: undefined });
      else go({ st: r.data.st, q: undefined });
    });
  }

  const message = error ?? (notice ? NOTICES[notice] : null);
  return (
    <form
      role="search"
      aria-label="Search executions"
      className="flex min-w-0 flex-1 flex-col gap-1"
      onSubmit={(e) => {
        e.preventDefault();
        submit(value);
      }}
    >
      <div className="relative flex items-center">
        <Search aria-hidden className="pointer-events-none absolute left-2.5 h-4 w-4 text-muted-fg" />
        <label htmlFor={SEARCH_INPUT_ID} className="sr-only">
          Search by name, execution or account id, reference, reporting criteria or document number
        </label>
        <Input
          id={SEARCH_INPUT_ID}
          type="search"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') (e.target as HTMLInputElement).blur();
          }}
          placeholder="Search names, ids, references, document numbers…"
          autoComplete="off"
          spellCheck={false}
          maxLength={200}
          aria-describedby={message ? 'execution-search-message' : undefined}
          className="pl-8 pr-16"
        />
        <span className="pointer-events-none absolute right-2 flex items-center gap-1">
          {saving ? <span className="text-xs text-muted-fg">…</span> : null}
          <kbd className="rounded border border-border bg-muted px-1.5 font-mono text-[10px] text-muted-fg" aria-hidden>
            /
          </kbd>
        </span>
      </div>
      {value && (params.st || params.q) ? (
        <Button
          type="button"
          variant="link"
          size="sm"
          className="h-auto self-start text-xs"
          onClick={() => {
            setValue('');
            submit('');
          }}
        >
          <X aria-hidden className="h-3 w-3" /> Clear search
        </Button>
      ) : null}
      {message ? (
        <p id="execution-search-message" role={error ? 'alert' : 'status'} className="text-xs text-warn">
          {message}
        </p>
      ) : null}
    </form>
  );
}
