import * as React from 'react';
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
