'use client';
import { useStepUp } from '@/components/account/step-up';
import { Eye, EyeOff } from 'lucide-react';
import { useRouter } from 'next/navigation';
import * as React from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/input';
import { hidePersonalDataAction, revealPersonalDataAction } from '@/lib/actions/review';
import { LimitedTextarea } from '@/components/ui/limited-field';
import { REVEAL_REASON_MAX } from '@/lib/actions/schemas/review';
import { LocalTime } from '@/components/time/local-time';
import { submitWith } from '@/components/ui/submit-with';

/** Reveal (with a reason, for 15 minutes) or hide this execution's personal data. */
export function RevealControls({
  executionId,
  reveal,
  disabled,
}: {
  executionId: string;
  reveal: { expiresAt: string; reason: string } | null;
  disabled?: boolean;
}) {
  const router = useRouter();
  const [open, setOpen] = React.useState(false);
  const [error, setError] = React.useState<string | null>(null);
  const [fieldError, setFieldError] = React.useState<string[] | undefined>();
  const [pending, start] = React.useTransition();
  const stepUp = useStepUp();

  // When the reveal runs out, the page masks itself again without a reload.
  React.useEffect(() => {
    if (!reveal) return;
    const ms = new Date(reveal.expiresAt).getTime() - Date.now();
    const t = setTimeout(() => router.refresh(), Math.max(0, ms) + 500);
    return () => clearTimeout(t);
  }, [reveal, router]);

  if (reveal) {
    return (
      <Button
        variant="secondary"
        disabled={pending}
        onClick={() =>
          start(async () => {
            await hidePersonalDataAction({ executionId });
            router.refresh();
          })
        }
      >
        <EyeOff aria-hidden className="h-4 w-4" /> Hide personal data
      </Button>
    );
  }
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        setError(null);
        setFieldError(undefined);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="secondary" disabled={disabled}>
          <Eye aria-hidden className="h-4 w-4" /> Reveal personal data
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Reveal personal data"
        description="Names, dates of birth, document numbers, addresses, contact details, IP addresses and images of this execution become visible to you for 15 minutes. Your reason is recorded in the audit log."
      >
        <form
          noValidate
          className="flex flex-col gap-3"
          onSubmit={submitWith({ executionId }, (fd) => {
            start(async () => {
              const r = await stepUp(() => revealPersonalDataAction(fd));
              if (!r.ok) {
                setError(r.fieldErrors?.reason ? null : r.error);
                setFieldError(r.fieldErrors?.reason);
                return;
              }
              setOpen(false);
              router.refresh();
            });
          })}
        >
          {error ? <Alert tone="error">{error}</Alert> : null}
          <FormField id="reveal-reason" label="Reason" errors={fieldError}>
            {(control) => (
              <LimitedTextarea
                {...control}
                limit={REVEAL_REASON_MAX}
                name="reason"
                required
                minLength={10}
                placeholder="e.g. Comparing the selfie with the document for case 4711"
                autoFocus
              />
            )}
          </FormField>
          <div className="flex justify-end gap-2">
            <DialogClose asChild>
              <Button variant="ghost">Cancel</Button>
            </DialogClose>
            <Button type="submit" disabled={pending}>
              {pending ? 'Revealing…' : 'Reveal for 15 minutes'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

export function RevealBanner({ reveal }: { reveal: { expiresAt: string; reason: string } }) {
  return (
    <Alert tone="warn" className="flex flex-wrap items-center gap-x-2">
      <Eye aria-hidden className="h-4 w-4 text-warn" />
      <span>
        Personal data is revealed to you until{' '}
        <strong>
          <LocalTime value={reveal.expiresAt} />
        </strong>
        .
      </span>
      <span className="text-muted-fg">Reason: “{reveal.reason}”</span>
    </Alert>
  );
}
