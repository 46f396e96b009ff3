import { cva, type VariantProps } from 'class-variance-authority';
import * as React from 'react';
import { cn } from '@/lib/utils';

export const badgeVariants = cva(
  'inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset whitespace-nowrap',
  {
    variants: {
      tone: {
        ok: 'text-ok ring-ok/40 bg-ok/10',
        warn: 'text-warn ring-warn/40 bg-warn/10',
        reject: 'text-reject ring-reject/40 bg-reject/10',
        neutral: 'text-neutral ring-neutral/30 bg-neutral/10',
        info: 'text-primary ring-primary/40 bg-primary/10',
      },
    },
    defaultVariants: { tone: 'neutral' },
  },
);

export function Badge({
  className,
  tone,
  ...props
}: React.HTMLAttributes<HTMLSpanElement> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ tone }), className)} {...props} />;
}
