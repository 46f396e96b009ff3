'use client';
import { Bookmark, X } from 'lucide-react';
import Link from 'next/link';
import * as React from 'react';
import { ActionResultNote } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { deleteViewAction, saveViewAction } from '@/lib/actions/views';
import type { ActionResult } from '@/lib/auth/guards';
import { toSearchParams, type ListParams } from '@/lib/executions/list-params';

export interface SavedViewLink {
  id: string;
  name: string;
  query: string;
}

/** The person's own saved views as links, and "Save view" for the list as it is now. */
export function SavedViews({ views, params }: { views: SavedViewLink[]; params: ListParams }) {
  const [saving, setSaving] = React.useState(false);
  const [name, setName] = React.useState('');
  const [result, setResult] = React.useState<ActionResult<unknown> | null>(null);
  const [pending, start] = React.useTransition();
  const query = toSearchParams(params, { withCursor: false }).toString();
  return (
    <div className="flex flex-wrap items-center gap-1.5 text-sm" aria-label="Your saved views" role="group">
      {views.map((v) => (
        <span key={v.id} className="inline-flex items-center rounded-md border border-border">
          <Link href={`/executions${v.query ? `?${v.query}` : ''}`} className="px-2 py-1 hover:underline">
            {v.name}
          </Link>
          <button
            type="button"
            aria-label={`Delete the view ${v.name}`}
            className="px-1 text-muted-fg hover:text-fg"
            disabled={pending}
            onClick={() => start(async () => setResult(await deleteViewAction({ id: v.id })))}
          >
            <X aria-hidden className="h-3.5 w-3.5" />
          </button>
        </span>
      ))}
      {saving ? (
        <form
          aria-label="Save this view"
          className="inline-flex items-center gap-1.5"
          onSubmit={(e) => {
            e.preventDefault();
            start(async () => {
              const r = await saveViewAction({ name, query });
              setResult(r);
              if (r.ok) {
                setSaving(false);
                setName('');
              }
            });
          }}
        >
          <Input
            aria-label="View name"
            className="h-8 w-44"
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={Boolean(result && !result.ok)}
            autoFocus
          />
          <Button size="sm" type="submit" disabled={pending}>
            Save
          </Button>
          <Button size="sm" variant="ghost" type="button" onClick={() => setSaving(false)}>
            Cancel
          </Button>
        </form>
      ) : (
        <Button size="sm" variant="ghost" onClick={() => setSaving(true)}>
          <Bookmark aria-hidden className="h-4 w-4" /> Save view
        </Button>
      )}
      <ActionResultNote result={result} as="span" />
    </div>
  );
}
