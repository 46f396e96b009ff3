'use client';
import { ListPlus } from 'lucide-react';
import * as React from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { createQueueAction } from '@/lib/actions/cases';
import { filterChips, parseQueueDefinition, queueDefinitionOf, type ListParams } from '@/lib/executions/list-params';
import { QueueFields } from './queue-fields';
import { submitWith } from '@/components/ui/submit-with';

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
          onSubmit={submitWith({ definition }, (fd) => {
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
          })}
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
          <QueueFields
            ids={{ name: 'queue-name', sla: 'queue-sla', priority: 'queue-priority', role: 'queue-role' }}
            values={{ slaHours: 24, priority: 50, minRole: 'analyst' }}
            errors={errors}
          />
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
