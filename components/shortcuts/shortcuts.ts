/**
 * Every keyboard shortcut of the console, defined once: the handlers read their key from here and
 * the help dialog (`?`) lists this table, so the two cannot drift apart.
 */
export const SHORTCUTS = {
  help: { key: '?', where: 'Everywhere', does: 'Show this list of shortcuts' },
  search: { key: '/', where: 'Executions list', does: 'Focus the search box' },
  rowDown: { key: 'j', where: 'Executions list', does: 'Move to the next row' },
  rowUp: { key: 'k', where: 'Executions list', does: 'Move to the previous row' },
  rowOpen: { key: 'Enter', where: 'Executions list', does: 'Open the active row' },
  rowSelect: { key: 'x', where: 'Executions list', does: 'Select or unselect the active row' },
  rowAssign: { key: 'a', where: 'Executions list', does: 'Assign the active row’s case to me' },
  rowResolve: { key: 'r', where: 'Executions list', does: 'Open the active row’s case at its resolve form' },
  nextCase: { key: 'n', where: 'Executions list, overview, execution', does: 'Claim and open the next case' },
  detailNext: { key: 'j', where: 'Execution', does: 'Next execution of the list it was opened from' },
  detailPrev: { key: 'k', where: 'Execution', does: 'Previous execution of that list' },
  detailList: { key: 'u', where: 'Execution', does: 'Back to the list' },
  caseAssign: { key: 'a', where: 'Execution', does: 'Assign the case to me' },
  caseResolve: { key: 'r', where: 'Execution', does: 'Move to the resolve form (arrow keys pick an outcome)' },
} as const satisfies Record<string, { key: string; where: string; does: string }>;

export type ShortcutName = keyof typeof SHORTCUTS;

/**
 * Focus is where single letters are text or belong to a widget (a text field, a select, a menu, a
 * dialog), so a shortcut must not fire. Radio buttons and checkboxes are not typing: letters mean
 * nothing to them, and `r` leaves the focus on an outcome radio, from which `u` must still work.
 */
export function isTypingTarget(target: EventTarget | null): boolean {
  const t = target as HTMLElement | null;
  return Boolean(
    t?.closest(
      'input:not([type=checkbox]):not([type=radio]), textarea, select, [contenteditable="true"], [role="menu"], [role="dialog"], [role="listbox"]',
    ),
  );
}

/** A key the console may take: not typed into a field, not with a modifier, not taken already. */
export function isShortcutEvent(e: KeyboardEvent): boolean {
  return !(e.defaultPrevented || e.metaKey || e.ctrlKey || e.altKey || isTypingTarget(e.target));
}
