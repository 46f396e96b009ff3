'use client';
import { ListPlus } from 'lucide-react';
import * as React from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { FieldError, Input, Label, Select } from '@/components/ui/input';
import { createQueueAction } from '@/lib/actions/cases';
import { filterChips, parseQueueDefinition, queueDefinitionOf, type ListParams } from '@/lib/executions/list-params';
import { LimitedInput } from '@/components/ui/limited-field';
import { QUEUE_NAME_MAX } from '@/lib/cases/schema';

/**
 * "Save as queue" (managers and admins): the list's current execution filters become a queue's
 * definition; case-work filters, the search, sort and position are not part of it.
 */
export function SaveQueueDialog({ params }: { params: ListParams }) {
  const [open, setOpen] = React.useState(false);
  const [pending, start] = React.useTransition();
  const [errors, setErrors] = React.useState<Record<string, string[]>>({});
  const [message, setMessage] = React.useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const definition = queueDefinitionOf(params);
  const chips = filterChips(parseQueueDefinition(definition));
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) {
          setErrors({});
          setMessage(null);
        }
      }}
    >
      <DialogTrigger asChild>
        <Button variant="secondary">
          <ListPlus aria-hidden className="h-4 w-4" /> Save as queue
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Save these filters as a queue"
        description="Executions that match get a case in the highest-priority queue they match, now and as they arrive."
      >
        <form
          noValidate
          className="flex flex-col gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            const fd = new FormData(e.currentTarget);
            fd.set('definition', definition);
            start(async () => {
              const r = await createQueueAction(fd);
              if (r.ok) {
                setMessage({ tone: 'success', text: r.message ?? 'Queue created.' });
                setErrors({});
              } else {
                setErrors(r.fieldErrors ?? {});
                setMessage({ tone: 'error', text: r.error });
              }
            });
          }}
        >
          <div>
            <p className="text-sm font-medium">Filters</p>
            {chips.length ? (
              <ul className="mt-1 flex flex-wrap gap-1" aria-label="Filters of the queue">
                {chips.map((c) => (
                  <li key={c.key} className="rounded-full border border-border px-2 py-0.5 text-xs">
                    {c.label}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-xs text-muted-fg">No filter: every execution would match.</p>
            )}
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor="queue-name">Name</Label>
            <LimitedInput
              id="queue-name"
              limit={QUEUE_NAME_MAX}
              name="name"
              required
              aria-invalid={Boolean(errors.name)}
            />
            <FieldError messages={errors.name} />
          </div>
          <div className="grid grid-cols-3 gap-3">
            <div className="flex flex-col gap-1">
              <Label htmlFor="queue-sla">SLA (hours)</Label>
              <Input id="queue-sla" name="slaHours" type="number" min={1} max={8760} defaultValue={24} required />
              <FieldError messages={errors.slaHours} />
            </div>
            <div className="flex flex-col gap-1">
              <Label htmlFor="queue-priority">Priority</Label>
              <Input id="queue-priority" name="priority" type="number" min={0} max={1000} defaultValue={50} required />
              <FieldError messages={errors.priority} />
            </div>
            <div className="flex flex-col gap-1">
              <Label htmlFor="queue-role">Worked by</Label>
              <Select id="queue-role" name="minRole" defaultValue="analyst">
                <option value="analyst">Analysts</option>
                <option value="manager">Managers</option>
              </Select>
            </div>
          </div>
          <p className="text-xs text-muted-fg">Lower priority numbers are matched and worked first.</p>
          {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
              Close
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? 'Saving…' : 'Save queue'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
