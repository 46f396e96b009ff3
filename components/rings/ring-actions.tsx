'use client';
import { useRouter } from 'next/navigation';
import * as React from 'react';
import { BulkFeedbackDialog } from '@/components/feedback/bulk-feedback-dialog';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { FieldError, Label, Textarea } from '@/components/ui/input';
import { dismissRingAction, openRingCasesAction } from '@/lib/actions/rings';
import type { ActionResult } from '@/lib/auth/guards';

/** Label the ring FRAUD, open cases for its unreviewed members, or dismiss it with a reason. */
export function RingActions({
  ringId,
  memberIds,
  role,
  status,
}: {
  ringId: number;
  memberIds: string[];
  role: 'analyst' | 'manager' | 'admin';
  status: string;
}) {
  const router = useRouter();
  const [pending, start] = React.useTransition();
  const [message, setMessage] = React.useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [reason, setReason] = React.useState('');
  const [dismiss, setDismiss] = React.useState<ActionResult<{ size: number }> | null>(null);
  const [open, setOpen] = React.useState(false);

  function openCases() {
    start(async () => {
      const r = await openRingCasesAction({ ringId });
      setMessage(
        r.ok
          ? {
              tone: 'ok',
              text: r.data.opened
                ? `Opened ${r.data.opened} case${r.data.opened === 1 ? '' : 's'} in the Rings queue.`
                : 'Every member already has a case or a label.',
            }
          : { tone: 'error', text: r.error },
      );
      router.refresh();
    });
  }
  function submitDismiss(e: React.FormEvent) {
    e.preventDefault();
    start(async () => {
      const r = await dismissRingAction({ ringId, reason });
      setDismiss(r);
      if (r.ok) {
        setOpen(false);
        setMessage({ tone: 'ok', text: `Dismissed: it shows again once it grows past ${r.data.size} members.` });
        router.refresh();
      }
    });
  }
  const fe = dismiss && !dismiss.ok ? (dismiss.fieldErrors ?? {}) : {};
  return (
    <div className="flex flex-col items-end gap-2">
      <div className="flex flex-wrap gap-2">
        <BulkFeedbackDialog executionIds={memberIds} role={role} ringId={ringId} />
        <Button size="sm" variant="secondary" onClick={openCases} disabled={pending}>
          Open cases
        </Button>
        <Dialog open={open} onOpenChange={setOpen}>
          <DialogTrigger asChild>
            <Button size="sm" variant="secondary" disabled={status === 'dismissed'}>
              Dismiss…
            </Button>
          </DialogTrigger>
          <DialogContent
            title={`Dismiss ring ${ringId}`}
            description="It leaves the open list until it grows; the reason is kept in the audit log."
          >
            <form noValidate onSubmit={submitDismiss} className="flex flex-col gap-3" aria-label="Dismiss ring">
              <Label htmlFor="dismiss-reason">Reason</Label>
              <Textarea
                id="dismiss-reason"
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                aria-invalid={fe.reason ? true : undefined}
                aria-describedby={fe.reason ? 'dismiss-reason-error' : undefined}
                maxLength={500}
              />
              <FieldError id="dismiss-reason-error" messages={fe.reason} />
              {dismiss && !dismiss.ok && !fe.reason ? <Alert tone="error">{dismiss.error}</Alert> : null}
              <div className="flex justify-end gap-2">
                <DialogClose asChild>
                  <Button variant="secondary">Cancel</Button>
                </DialogClose>
                <Button type="submit" disabled={pending}>
                  {pending ? 'Dismissing…' : 'Dismiss ring'}
                </Button>
              </div>
            </form>
          </DialogContent>
        </Dialog>
      </div>
      {message ? (
        <p role="status" className={message.tone === 'error' ? 'text-sm text-danger' : 'text-sm text-muted-fg'}>
          {message.text}
        </p>
      ) : null}
    </div>
  );
}
