'use client';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Select } from '@/components/ui/input';
import { bulkAssignCasesAction } from '@/lib/actions/cases';

/** Assigns the selected rows' cases: to me, or (managers) to a colleague. */
export function BulkAssign({
  executionIds,
  people,
  canAssignOthers,
  onDone,
}: {
  executionIds: string[];
  people: Array<{ id: string; name: string }>;
  canAssignOthers: boolean;
  onDone(message: string): void;
}) {
  const [to, setTo] = React.useState('me');
  const [pending, start] = React.useTransition();
  return (
    <span className="inline-flex items-center gap-1">
      {canAssignOthers ? (
        <Select aria-label="Assign to" className="h-8 w-40" value={to} onChange={(e) => setTo(e.target.value)}>
          <option value="me">Me</option>
          {people.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </Select>
      ) : null}
      <Button
        size="sm"
        variant="secondary"
        disabled={pending}
        onClick={() =>
          start(async () => {
            const r = await bulkAssignCasesAction({ executionIds, assignee: to });
            onDone(r.ok ? (r.message ?? 'Assigned.') : r.error);
          })
        }
      >
        {canAssignOthers ? 'Assign' : 'Assign to me'}
      </Button>
    </span>
  );
}
