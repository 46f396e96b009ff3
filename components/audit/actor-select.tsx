import * as React from 'react';
import { Select } from '@/components/ui/input';
import { cn } from '@/lib/utils';

/** A choice of one of the users the audit log names, or everyone (the empty value). */
export function ActorSelect({
  actors,
  className,
  ...props
}: { actors: string[] } & React.SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <Select className={cn('w-60', className)} {...props}>
      <option value="">Everyone</option>
      {actors.map((a) => (
        <option key={a} value={a}>
          {a}
        </option>
      ))}
    </Select>
  );
}
