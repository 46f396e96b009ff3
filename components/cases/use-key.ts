'use client';
import * as React from 'react';
import { isShortcutEvent, SHORTCUTS, type ShortcutName } from '@/components/shortcuts/shortcuts';

/**
 * A single-letter shortcut of case work (`n` next case, `a` assign to me, `r` resolve), ignored
 * while typing in a field, in a dialog or a menu, and with a modifier held: the same rules as the
 * list's and the detail page's keys (components/shortcuts/shortcuts.ts).
 */
export function useKey(name: ShortcutName, handler: (() => void) | null) {
  const key = SHORTCUTS[name].key;
  const ref = React.useRef(handler);
  React.useEffect(() => {
    ref.current = handler;
  });
  const enabled = handler !== null;
  React.useEffect(() => {
    if (!enabled) return;
    function onKey(e: KeyboardEvent) {
      if (e.key !== key || !isShortcutEvent(e)) return;
      e.preventDefault();
      ref.current?.();
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [key, enabled]);
}
