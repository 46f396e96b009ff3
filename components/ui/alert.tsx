import * as React from 'react';
import type { ActionResult } from '@/lib/auth/guards';
import { cn } from '@/lib/utils';

const tones = {
  info: 'border-primary/40 bg-primary/5 text-fg',
  error: 'border-danger/50 bg-danger/5 text-fg',
  success: 'border-ok/50 bg-ok/5 text-fg',
  warn: 'border-warn/50 bg-warn/5 text-fg',
};

export function Alert({
  tone = 'info',
  className,
  ...props
}: React.HTMLAttributes<HTMLDivElement> & { tone?: keyof typeof tones }) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn('rounded-md border px-3 py-2 text-sm', tones[tone], className)}
      {...props}
    />
  );
}

/**
 * An action's outcome over its form: its message, or its error; where the action named fields,
 * the errors stand at those fields and this only points at them.
 */
export function ActionResultAlert({ result }: { result: ActionResult<unknown> | null }) {
  if (!result) return null;
  return (
    <Alert tone={result.ok ? 'success' : 'error'}>
      {result.ok
        ? result.message
        : result.fieldErrors && Object.keys(result.fieldErrors).length > 0
          ? 'Check the highlighted fields.'
          : result.error}
    </Alert>
  );
}

/** An action's outcome in a line beside the control that ran it. */
export function ActionResultNote({
  result,
  as: Tag = 'p',
}: {
  result: ActionResult<unknown> | null;
  as?: 'p' | 'span';
}) {
  if (!result) return null;
  return (
    <Tag role={result.ok ? 'status' : 'alert'} className={result.ok ? 'text-xs text-muted-fg' : 'text-xs text-danger'}>
      {result.ok ? result.message : result.error}
    </Tag>
  );
}
