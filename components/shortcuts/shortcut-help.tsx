'use client';
import * as React from 'react';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { isShortcutEvent, SHORTCUTS } from './shortcuts';

/**
 * `?` anywhere in the console opens the list of every shortcut, read from the one table the
 * handlers use. Closing it gives the focus back to where it was (Radix), so the next key works
 * where the user left off.
 */
export function ShortcutHelp() {
  const [open, setOpen] = React.useState(false);
  React.useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.key !== SHORTCUTS.help.key || !isShortcutEvent(e)) return;
      e.preventDefault();
      setOpen(true);
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  // Map.groupBy is not in Node 20, which renders this on the server.
  const groups = new Map<string, Array<(typeof SHORTCUTS)[keyof typeof SHORTCUTS]>>();
  for (const s of Object.values(SHORTCUTS)) groups.set(s.where, [...(groups.get(s.where) ?? []), s]);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogContent title="Keyboard shortcuts" description="Single keys, ignored while you type in a field.">
        <div className="max-h-[60vh] overflow-y-auto" tabIndex={0} aria-label="Shortcuts by page">
          {[...groups].map(([where, list]) => (
            <section key={where} className="mb-3">
              <h3 className="mb-1 text-xs font-semibold uppercase text-muted-fg">{where}</h3>
              <table className="w-full text-sm">
                <tbody>
                  {list.map((s) => (
                    <tr key={`${where}-${s.key}`}>
                      <td className="w-16 py-0.5 align-top">
                        <kbd className="rounded border border-border bg-muted px-1.5 font-mono text-xs">{s.key}</kbd>
                      </td>
                      <td className="py-0.5">{s.does}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          ))}
        </div>
      </DialogContent>
    </Dialog>
  );
}
