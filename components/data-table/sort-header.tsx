'use client';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import * as React from 'react';
import { cn } from '@/lib/utils';

export type SortDir = 'asc' | 'desc';

/** A column header that sorts by its key: descending first, then ascending. */
export function SortHeader({
  label,
  name,
  active,
  dir,
  onSort,
}: {
  label: React.ReactNode;
  /** What the column sorts by, in words, for the button's accessible name. */
  name: string;
  active: boolean;
  dir: SortDir;
  onSort(dir: SortDir): void;
}) {
  const Icon = !active ? ArrowUpDown : dir === 'desc' ? ArrowDown : ArrowUp;
  return (
    <button
      type="button"
      className={cn('inline-flex items-center gap-1 uppercase tracking-wide hover:text-fg', active && 'text-fg')}
      onClick={() => onSort(active && dir === 'desc' ? 'asc' : 'desc')}
      aria-label={`Sort by ${name}${active ? (dir === 'desc' ? ', now newest or highest first' : ', now oldest or lowest first') : ''}`}
    >
      {label}
      <Icon aria-hidden className="h-3 w-3" />
    </button>
  );
}
