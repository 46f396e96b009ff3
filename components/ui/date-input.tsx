import * as React from 'react';
import { Input } from '@/components/ui/input';
import { cn, DAY_FORMAT } from '@/lib/utils';

/**
 * A day (or a day and a time) typed as text in one format that the field says beside it. A
 * browser's own date input shows the machine's locale (mm/dd/yyyy on most), which reads 03/04 as
 * March or April depending on who looks; here the format is the same for everyone and the field's
 * hint is tied to it (aria-describedby), with the error under it when the text is not a day.
 */
export function DateInput({
  id,
  error,
  withTime,
  hint,
  className,
  'aria-describedby': describedBy,
  ...props
}: Omit<React.ComponentProps<'input'>, 'type' | 'id'> & {
  id: string;
  /** Why the text is refused, shown under the field (and the field marked invalid). */
  error?: string | null;
  /** A day and a time: YYYY-MM-DD HH:MM. */
  withTime?: boolean;
  /** What else the reader needs to know (the zone the day is in). */
  hint?: string;
}) {
  const format = withTime ? `${DAY_FORMAT} HH:MM` : DAY_FORMAT;
  const hintId = `${id}-format`;
  const errorId = `${id}-error`;
  return (
    <>
      <Input
        id={id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        placeholder={format}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, error ? errorId : null, describedBy].filter(Boolean).join(' ')}
        className={cn('font-mono tabular-nums', withTime ? 'w-48' : 'w-36', className)}
        {...props}
      />
      <span id={hintId} className="text-xs text-muted-fg">
        {format}
        {hint ? `, ${hint}` : ''}
      </span>
      {error ? (
        <span id={errorId} role="alert" className="max-w-64 text-xs text-danger">
          {error}
        </span>
      ) : null}
    </>
  );
}
