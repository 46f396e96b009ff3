'use client';
import { Columns3 } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';

/** The list's "Columns" button; the same before and after the menu's code has loaded. */
export function ColumnsButton(props: React.ComponentProps<typeof Button>) {
  return (
    <Button variant="secondary" aria-label="Choose columns" {...props}>
      <Columns3 aria-hidden className="h-4 w-4" /> Columns
    </Button>
  );
}
