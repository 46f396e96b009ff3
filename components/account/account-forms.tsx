'use client';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { FieldError, FormField, Input } from '@/components/ui/input';
import {
  changePasswordAction,
  removeFactorAction,
  replaceRecoveryCodesAction,
  signOutOtherSessionsAction,
  signOutSessionAction,
} from '@/lib/actions/account';
import type { ActionResult } from '@/lib/auth/guards';
import { PasskeyEnrolment, RecoveryCodes, TotpEnrolment } from './second-factor-forms';
import { useStepUp } from './step-up';

/** The account page's forms (app/(console)/account). */
function useAction() {
  const router = useRouter();
  const stepUp = useStepUp();
  const [result, setResult] = useState<ActionResult<unknown> | null>(null);
  const [pending, start] = useTransition();
  const run = (call: () => Promise<ActionResult<unknown>>) =>
    start(async () => {
      const r = await stepUp(call);
      setResult(r);
      if (r.ok) router.refresh();
    });
  return { result, pending, run };
}

function Outcome({ result }: { result: ActionResult<unknown> | null }) {
  if (!result) return null;
  return result.ok ? (
    result.message ? (
      <Alert tone="success">{result.message}</Alert>
    ) : null
  ) : (
    <Alert tone="error">{result.error}</Alert>
  );
}

export function AddFactor() {
  const router = useRouter();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [adding, setAdding] = useState(false);
  const done = (recoveryCodes: string[] | null) => {
    setAdding(false);
    setCodes(recoveryCodes);
    router.refresh();
  };
  if (codes) return <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />;
  if (!adding)
    return (
      <Button variant="secondary" className="self-start" onClick={() => setAdding(true)}>
        Add a second factor
      </Button>
    );
  return (
    <div className="flex flex-col gap-2 rounded-md border border-border p-3">
      <TotpEnrolment onEnrolled={done} />
      <PasskeyEnrolment onEnrolled={done} />
      <Button variant="link" size="sm" className="self-start" onClick={() => setAdding(false)}>
        Cancel
      </Button>
    </div>
  );
}

export function RemoveFactorButton({ factorId, label, last }: { factorId: string; label: string; last: boolean }) {
  const { result, pending, run } = useAction();
  return (
    <div className="flex flex-col items-end gap-1">
      <Button
        size="sm"
        variant="secondary"
        disabled={pending || last}
        title={last ? 'Add another factor before removing your only one' : undefined}
        aria-label={`Remove ${label}`}
        onClick={() => run(() => removeFactorAction({ factorId }))}
      >
        Remove
      </Button>
      <FieldError messages={result && !result.ok ? result.error : null} />
    </div>
  );
}

export function ReplaceRecoveryCodes() {
  const stepUp = useStepUp();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        className="self-start"
        disabled={pending}
        onClick={() =>
          start(async () => {
            const r = await stepUp(() => replaceRecoveryCodesAction({}));
            if (r.ok) setCodes(r.data.recoveryCodes);
            else setError(r.error);
          })
        }
      >
        Make new recovery codes
      </Button>
      <FieldError messages={error} />
      <Dialog open={codes !== null} onOpenChange={(o) => (o ? null : setCodes(null))}>
        {codes ? (
          <DialogContent title="Your new recovery codes" description="The old ones no longer work.">
            <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
          </DialogContent>
        ) : null}
      </Dialog>
    </>
  );
}

export function ChangePasswordForm({ needsCode }: { needsCode: boolean }) {
  const { result, pending, run } = useAction();
  const fe = result && !result.ok ? (result.fieldErrors ?? {}) : {};
  return (
    <form
      noValidate
      className="flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        const form = e.currentTarget;
        const data = new FormData(form);
        run(async () => {
          const r = await changePasswordAction(data);
          if (r.ok) form.reset();
          return r;
        });
      }}
    >
      <Outcome result={result && (result.ok || !result.fieldErrors) ? result : null} />
      <FormField id="pw-current" label="Current password" errors={fe.current}>
        {(control) => <Input {...control} name="current" type="password" autoComplete="current-password" />}
      </FormField>
      <FormField
        id="pw-next"
        label="New password"
        hint="At least 12 characters, not a common or breached one. Your other sessions are signed out."
        errors={fe.next}
      >
        {(control) => <Input {...control} name="next" type="password" autoComplete="new-password" />}
      </FormField>
      {needsCode ? (
        <FormField id="pw-code" label="Code from your authenticator app" errors={fe.code}>
          {(control) => <Input {...control} name="code" autoComplete="one-time-code" />}
        </FormField>
      ) : null}
      <Button type="submit" className="self-start" disabled={pending}>
        {pending ? 'Changing…' : 'Change password'}
      </Button>
    </form>
  );
}

export function SignOutSessionButton({ sessionId, label }: { sessionId: string; label: string }) {
  const { result, pending, run } = useAction();
  return (
    <>
      <Button
        size="sm"
        variant="secondary"
        disabled={pending}
        aria-label={`Sign out ${label}`}
        onClick={() => run(() => signOutSessionAction({ sessionId }))}
      >
        Sign out
      </Button>
      <FieldError messages={result && !result.ok ? result.error : null} />
    </>
  );
}

export function SignOutOthersButton() {
  const { result, pending, run } = useAction();
  return (
    <div className="flex items-center gap-2">
      <Outcome result={result} />
      <Button
        size="sm"
        variant="secondary"
        disabled={pending}
        onClick={() => run(() => signOutOtherSessionsAction({}))}
      >
        Sign out all other sessions
      </Button>
    </div>
  );
}
