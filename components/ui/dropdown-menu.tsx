'use client';
import { DropdownMenu as M } from 'radix-ui';
import * as React from 'react';
import { cn } from '@/lib/utils';

export const DropdownMenu = M.Root;
export const DropdownMenuTrigger = M.Trigger;

export function DropdownMenuContent({ className, ...props }: React.ComponentProps<typeof M.Content>) {
  return (
    <M.Portal>
      <M.Content
        sideOffset={6}
        className={cn('z-50 min-w-44 rounded-md border border-border bg-card p-1 text-sm shadow-lg', className)}
        {...props}
      />
    </M.Portal>
  );
}
export function DropdownMenuItem({ className, ...props }: React.ComponentProps<typeof M.Item>) {
  return (
    <M.Item
      className={cn(
        'flex cursor-pointer select-none items-center gap-2 rounded px-2 py-1.5 outline-none data-[highlighted]:bg-muted',
        className,
      )}
      {...props}
    />
  );
}
export function DropdownMenuLabel({ className, ...props }: React.ComponentProps<typeof M.Label>) {
  return <M.Label className={cn('px-2 py-1.5 text-xs text-muted-fg', className)} {...props} />;
}
export const DropdownMenuSeparator = () => <M.Separator className="my-1 h-px bg-border" />;
/** A menu entry that stays open and toggles (for example a column's visibility). */
export function DropdownMenuCheckboxItem({
  className,
  children,
  ...props
}: React.ComponentProps<typeof M.CheckboxItem>) {
  return (
    <M.CheckboxItem
      onSelect={(e) => e.preventDefault()}
      className={cn(
        'flex cursor-pointer select-none items-center gap-2 rounded px-2 py-1.5 outline-none data-[highlighted]:bg-muted data-[disabled]:opacity-50',
        className,
      )}
      {...props}
    >
      <span
        aria-hidden
        className="flex h-4 w-4 items-center justify-center rounded border border-border text-[10px] data-[state=checked]:bg-primary"
      >
        <M.ItemIndicator>✓</M.ItemIndicator>
      </span>
      {children}
    </M.CheckboxItem>
  );
}
