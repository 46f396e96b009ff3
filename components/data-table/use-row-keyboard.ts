'use client';
import * as React from 'react';
import { isTypingTarget, SHORTCUTS } from '@/components/shortcuts/shortcuts';

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
      const typing = isTypingTarget(e.target);
      // Escape leaves the search box for the rows, so the list's keys work again without the mouse.
      if (e.key === 'Escape' && searchInputId && (e.target as HTMLElement | null)?.id === searchInputId) {
        (e.target as HTMLElement).blur();
        if (count) focusRow(Math.max(0, active));
        return;
      }
      if (e.key === SHORTCUTS.search.key && !typing && searchInputId) {
        e.preventDefault();
        document.getElementById(searchInputId)?.focus();
        return;
      }
      if (typing || !count) return;
      const down = e.key === SHORTCUTS.rowDown.key;
      if (down || e.key === SHORTCUTS.rowUp.key) {
        e.preventDefault();
        const cur = active < 0 ? (down ? -1 : count) : active;
        focusRow(Math.max(0, Math.min(count - 1, cur + (down ? 1 : -1))));
      } else if (
        e.key === SHORTCUTS.rowOpen.key &&
        active >= 0 &&
        !(e.target as HTMLElement | null)?.closest('a, button')
      ) {
        e.preventDefault();
        onOpen(active);
      } else if (e.key === SHORTCUTS.rowSelect.key && active >= 0 && onToggle) {
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
