import * as React from 'react';
import { cn } from '@/lib/utils';

export const fieldClass =
  'h-9 w-full rounded-md border border-border bg-card px-3 text-sm text-fg placeholder:text-muted-fg focus-visible:outline-2 disabled:opacity-50 aria-[invalid=true]:border-danger';

export function Input({ className, ...props }: React.ComponentProps<'input'>) {
  return <input className={cn(fieldClass, className)} {...props} />;
}

export function Textarea({ className, ...props }: React.ComponentProps<'textarea'>) {
  return <textarea className={cn(fieldClass, 'h-auto min-h-20 py-2', className)} {...props} />;
}

/** A native select: accessible, keyboard-friendly and light. */
export function Select({ className, ...props }: React.SelectHTMLAttributes<HTMLSelectElement>) {
  return <select className={cn(fieldClass, 'pr-8', className)} {...props} />;
}

export function Label({ className, ...props }: React.LabelHTMLAttributes<HTMLLabelElement>) {
  return <label className={cn('text-sm font-medium text-fg', className)} {...props} />;
}

export function FieldError({ id, messages }: { id?: string; messages?: string | string[] | null }) {
  if (!messages?.length) return null;
  return (
    <p id={id} className="text-xs text-danger" role="alert">
      {[messages].flat().join(' ')}
    </p>
  );
}

/** What a control needs to be tied to its field's label, hint and error message. */
export type FieldControl = { id: string; 'aria-invalid': boolean; 'aria-describedby': string };

/**
 * A labelled field: the label, the control, an optional hint and the field's errors, with the ids
 * that tie them together. The control is rendered by `children`, given those ids to spread (or to
 * pick from, where a control describes itself differently).
 */
export function FormField({
  id,
  label,
  hint,
  errors,
  className,
  children,
}: {
  id: string;
  label: React.ReactNode;
  hint?: React.ReactNode;
  errors?: string | string[] | null;
  className?: string;
  children: (control: FieldControl) => React.ReactNode;
}) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children({
        id,
        'aria-invalid': Boolean(errors),
        'aria-describedby': hint ? `${hintId} ${errorId}` : errorId,
      })}
      {hint ? (
        <p id={hintId} className="text-xs text-muted-fg">
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId} messages={errors} />
    </div>
  );
}
