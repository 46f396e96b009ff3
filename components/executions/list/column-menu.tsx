'use client';
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { LIST_COLUMN_IDS, LIST_COLUMN_LABELS, REQUIRED_COLUMNS, type ListColumnId } from '@/lib/executions/columns';
import { ColumnsButton } from './column-menu-button';

/** Which columns the list shows; loaded on first use (components/ui/on-first-use.tsx). */
export default function ColumnMenu({
  hidden,
  onChange,
  defaultOpen,
}: {
  hidden: ListColumnId[];
  onChange(hidden: ListColumnId[]): void;
  defaultOpen: boolean;
}) {
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <ColumnsButton />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>Shown columns (remembered for you)</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {LIST_COLUMN_IDS.filter((c) => !REQUIRED_COLUMNS.includes(c)).map((c) => (
          <DropdownMenuCheckboxItem
            key={c}
            checked={!hidden.includes(c)}
            onCheckedChange={(on) => onChange(on ? hidden.filter((h) => h !== c) : [...hidden, c])}
          >
            {LIST_COLUMN_LABELS[c]}
          </DropdownMenuCheckboxItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
