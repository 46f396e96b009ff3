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

export function FieldError({ id, messages }: { id?: string; messages?: string[] }) {
  if (!messages?.length) return null;
  return (
    <p id={id} className="text-xs text-danger" role="alert">
      {messages.join(' ')}
    </p>
  );
}
