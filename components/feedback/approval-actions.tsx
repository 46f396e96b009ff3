'use client';
import { Check, X } from 'lucide-react';
import * as React from 'react';
import { approveFeedbackAction, rejectFeedbackAction } from '@/lib/actions/approvals';
import { Button } from '@/components/ui/button';
import { FieldError, Label } from '@/components/ui/input';
import type { ActionResult } from '@/lib/auth/guards';
import { COMMENT_MAX } from '@/lib/feedback/schema';
import { LimitedTextarea } from '@/components/ui/limited-field';

/** Approve, or reject with a comment the analyst reads, one waiting label. */
export function ApprovalActions({ submissionId, label, mine }: { submissionId: string; label: string; mine: boolean }) {
  const [rejecting, setRejecting] = React.useState(false);
  const [comment, setComment] = React.useState('');
  const [result, setResult] = React.useState<ActionResult<unknown> | null>(null);
  const [pending, start] = React.useTransition();
  const run = (fn: () => Promise<ActionResult<unknown>>) =>
    start(async () => {
      const r = await fn();
      setResult(r);
    });
  if (mine) return <p className="text-xs text-muted-fg">Your own label: another manager decides.</p>;
  if (result?.ok)
    return (
      <p role="status" className="text-xs text-ok">
        {result.message}
      </p>
    );
  const fe = result && !result.ok ? (result.fieldErrors ?? {}) : {};
  return (
    <div className="flex flex-col items-end gap-2">
      {!rejecting ? (
        <div className="flex gap-2">
          <Button
            size="sm"
            disabled={pending}
            onClick={() => run(() => approveFeedbackAction({ submissionId }))}
            aria-label={`Approve ${label}`}
          >
            <Check aria-hidden className="h-4 w-4" /> Approve
          </Button>
          <Button
            size="sm"
            variant="secondary"
            disabled={pending}
            onClick={() => setRejecting(true)}
            aria-label={`Reject ${label}`}
          >
            <X aria-hidden className="h-4 w-4" /> Reject…
          </Button>
        </div>
      ) : (
        <form
          className="flex w-72 flex-col gap-1.5"
          onSubmit={(e) => {
            e.preventDefault();
            run(() => rejectFeedbackAction({ submissionId, comment }));
          }}
        >
          <Label htmlFor={`reject-${submissionId}`} className="text-xs">
            Why is it rejected? The analyst reads this.
          </Label>
          <LimitedTextarea
            id={`reject-${submissionId}`}
            limit={COMMENT_MAX}
            rows={2}
            autoFocus
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            aria-invalid={Boolean(fe.comment)}
            aria-describedby={fe.comment ? `reject-${submissionId}-error` : undefined}
          />
          <FieldError id={`reject-${submissionId}-error`} messages={fe.comment} />
          <div className="flex justify-end gap-2">
            <Button size="sm" variant="ghost" onClick={() => setRejecting(false)} disabled={pending}>
              Cancel
            </Button>
            <Button size="sm" variant="danger" type="submit" disabled={pending || !comment.trim()}>
              Reject
            </Button>
          </div>
        </form>
      )}
      {result && !result.ok && !fe.comment ? (
        <p role="alert" className="max-w-72 text-right text-xs text-danger">
          {result.error}
        </p>
      ) : null}
    </div>
  );
}
