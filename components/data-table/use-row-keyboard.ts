'use client';
import * as React from 'react';

/** Focus is in a field (or a menu or dialog): single-letter keys belong to it, not to the list. */
function isTyping(target: EventTarget | null): boolean {
  const t = target as HTMLElement | null;
  return Boolean(
    t?.closest(
      'input:not([type=checkbox]), textarea, select, [contenteditable="true"], [role="menu"], [role="dialog"]',
    ),
  );
}

/**
 * The list's keys, for any table of rows: `/` focuses the search, `j`/`k` move the active row
 * (focusing its link, `a[data-row-link]`), `Enter` opens it and `x` toggles its selection; a
 * table may add its own single-letter keys on the active row (`rowKeys`). Not while the user is
 * typing in a field.
 */
export function useRowKeyboard(opts: {
  bodyRef: React.RefObject<HTMLTableSectionElement | null>;
  count: number;
  active: number;
  setActive(i: number): void;
  onOpen(i: number): void;
  onToggle?(i: number): void;
  searchInputId?: string;
  rowKeys?: Record<string, (i: number) => void>;
}) {
  const { bodyRef, count, active, setActive, onOpen, onToggle, searchInputId, rowKeys } = opts;
  const focusRow = React.useCallback(
    (i: number) => {
      const link = bodyRef.current?.querySelectorAll<HTMLAnchorElement>('a[data-row-link]')[i];
      if (!link) return;
      link.focus();
      link.closest('tr')?.scrollIntoView({ block: 'nearest' });
      setActive(i);
    },
    [bodyRef, setActive],
  );

  React.useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.defaultPrevented || e.metaKey || e.ctrlKey || e.altKey) return;
      const typing = isTyping(e.target);
      if (e.key === '/' && !typing && searchInputId) {
        e.preventDefault();
        document.getElementById(searchInputId)?.focus();
        return;
      }
      if (typing || !count) return;
      if (e.key === 'j' || e.key === 'k') {
        e.preventDefault();
        const cur = active < 0 ? (e.key === 'j' ? -1 : count) : active;
        focusRow(Math.max(0, Math.min(count - 1, cur + (e.key === 'j' ? 1 : -1))));
      } else if (e.key === 'Enter' && active >= 0 && !(e.target as HTMLElement | null)?.closest('a, button')) {
        e.preventDefault();
        onOpen(active);
      } else if (e.key === 'x' && active >= 0 && onToggle) {
        e.preventDefault();
        onToggle(active);
      } else if (active >= 0 && rowKeys && Object.hasOwn(rowKeys, e.key)) {
        e.preventDefault();
        rowKeys[e.key](active);
      }
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [count, active, focusRow, onOpen, onToggle, searchInputId, rowKeys]);
}
