'use client';
import { LogOut, ShieldCheck } from 'lucide-react';
import Link from 'next/link';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { signOutAndLeave } from '@/lib/auth/sign-out';
import { AccountButton, type AccountUser } from './account-button';

/** Loaded on first use (components/ui/on-first-use.tsx): who is signed in, and sign-out. */
export default function AccountMenu({ user, defaultOpen }: { user: AccountUser; defaultOpen: boolean }) {
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <AccountButton user={user} />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>
          <span className="block text-fg">{user.email}</span>
          <span className="capitalize">{user.role}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link href="/account">
            <ShieldCheck className="h-4 w-4" aria-hidden /> Your account and security
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => void signOutAndLeave('/login')}>
          <LogOut className="h-4 w-4" aria-hidden /> Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
