'use client';
import * as React from 'react';

export interface FirstUse {
  /** Opened by the user (click, Enter or Space) rather than only pointed at. */
  open: boolean;
}

export interface FirstUseTriggerProps {
  'aria-haspopup': 'menu';
  'aria-expanded': false;
  onPointerEnter(): void;
  onClick(): void;
}

/**
 * A menu whose code is downloaded when someone first uses it, not with the page (the list's
 * JavaScript budget). Until then `trigger` renders a button that looks and reads the same;
 * pointing at it starts the download, and activating it opens the real menu as soon as it has
 * arrived (`children` gets `{ open: true }` and passes it on as the menu's `defaultOpen`, so the
 * menu takes focus as it would have). `children` renders a `React.lazy` component.
 */
export function OnFirstUse({
  trigger,
  children,
}: {
  trigger(props: FirstUseTriggerProps): React.ReactNode;
  children(use: FirstUse): React.ReactNode;
}) {
  const [use, setUse] = React.useState<FirstUse | null>(null);
  const props: FirstUseTriggerProps = {
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onPointerEnter: () => setUse((u) => u ?? { open: false }),
    onClick: () => setUse({ open: true }),
  };
  if (!use) return trigger(props);
  return <React.Suspense fallback={trigger(props)}>{children(use)}</React.Suspense>;
}
