'use client';
import { ChevronLeft, ChevronRight, List, Loader2 } from 'lucide-react';
import Link, { useLinkStatus } from 'next/link';
import { useRouter } from 'next/navigation';
import * as React from 'react';
import { isShortcutEvent, SHORTCUTS } from '@/components/shortcuts/shortcuts';
import { Button } from '@/components/ui/button';

/** A spinner while the link it sits in is loading its page. */
function Pending() {
  const { pending } = useLinkStatus();
  return pending ? <Loader2 aria-hidden className="h-3.5 w-3.5 animate-spin" /> : null;
}

/**
 * "Previous" and "next" within the list this execution was opened from (same filters and sort),
 * and back to that list; j / k / u from the keyboard. The current execution stays on screen
 * until the next one is ready (no skeleton flash while walking a list).
 */
export function DetailNav({
  prevHref,
  nextHref,
  listHref,
}: {
  prevHref: string | null;
  nextHref: string | null;
  listHref: string;
}) {
  const router = useRouter();
  const [pending, start] = React.useTransition();
  React.useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (!isShortcutEvent(e)) return;
      const href =
        e.key === SHORTCUTS.detailNext.key
          ? nextHref
          : e.key === SHORTCUTS.detailPrev.key
            ? prevHref
            : e.key === SHORTCUTS.detailList.key
              ? listHref
              : null;
      if (href) {
        e.preventDefault();
        start(() => router.push(href));
      }
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [prevHref, nextHref, listHref, router]);
  return (
    <nav aria-label="Walk the list" className="flex flex-wrap items-center gap-2">
      <Button asChild variant="ghost" size="sm">
        <Link href={listHref}>
          <List aria-hidden className="h-4 w-4" /> Back to list{' '}
          <kbd className="ml-1 font-mono text-[10px] text-muted-fg">{SHORTCUTS.detailList.key}</kbd>
          <Pending />
        </Link>
      </Button>
      {pending ? (
        <span role="status" className="flex items-center gap-1 text-xs text-muted-fg">
          <Loader2 aria-hidden className="h-3.5 w-3.5 animate-spin" /> Loading…
        </span>
      ) : null}
      <span className="ml-auto flex items-center gap-2">
        {prevHref ? (
          <Button asChild variant="secondary" size="sm">
            <Link href={prevHref} rel="prev">
              <ChevronLeft aria-hidden className="h-4 w-4" /> Previous{' '}
              <kbd className="font-mono text-[10px] text-muted-fg">{SHORTCUTS.detailPrev.key}</kbd>
              <Pending />
            </Link>
          </Button>
        ) : (
          <Button variant="secondary" size="sm" disabled>
            <ChevronLeft aria-hidden className="h-4 w-4" /> Previous
          </Button>
        )}
        {nextHref ? (
          <Button asChild variant="secondary" size="sm">
            <Link href={nextHref} rel="next">
              Next <kbd className="font-mono text-[10px] text-muted-fg">{SHORTCUTS.detailNext.key}</kbd>
              <ChevronRight aria-hidden className="h-4 w-4" />
              <Pending />
            </Link>
          </Button>
        ) : (
          <Button variant="secondary" size="sm" disabled>
            Next <ChevronRight aria-hidden className="h-4 w-4" />
          </Button>
        )}
      </span>
    </nav>
  );
}
