'use client';
import * as React from 'react';

/**
 * A single-letter shortcut of case work (`n` next case, `a` assign to me, `r` resolve), ignored
 * while typing in a field, in a dialog or a menu, and with a modifier held: the same rules as the
 * list's and the detail page's keys.
 */
export function useKey(key: string, handler: (() => void) | null) {
  const ref = React.useRef(handler);
  React.useEffect(() => {
    ref.current = handler;
  });
  const enabled = handler !== null;
  React.useEffect(() => {
    if (!enabled) return;
    function onKey(e: KeyboardEvent) {
      if (e.key !== key || e.defaultPrevented || e.metaKey || e.ctrlKey || e.altKey) return;
      const t = e.target as HTMLElement | null;
      if (t?.closest('input, textarea, select, [contenteditable="true"], [role="dialog"], [role="menu"]')) return;
      e.preventDefault();
      ref.current?.();
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [key, enabled]);
}
