'use client';
import * as React from 'react';
import { Button } from '@/components/ui/button';

export interface AccountUser {
  name: string;
  email: string;
  role: string;
}

/** The header's account button; the same before and after the menu's code has loaded. */
export function AccountButton({ user, ...props }: { user: AccountUser } & React.ComponentProps<typeof Button>) {
  return (
    <Button variant="ghost" className="gap-2" aria-label={`Account menu for ${user.name}`} {...props}>
      <span
        className="flex h-7 w-7 items-center justify-center rounded-full bg-primary/15 text-xs font-semibold text-primary"
        aria-hidden
      >
        {user.name.slice(0, 1).toUpperCase()}
      </span>
      <span className="hidden text-sm sm:inline">{user.name}</span>
    </Button>
  );
}
