'use client';
import { KeyRound, Smartphone } from 'lucide-react';
import { useState, useTransition } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FieldError, FormField, Input } from '@/components/ui/input';
import {
  confirmTotpEnrolmentAction,
  passkeyAuthenticationOptionsAction,
  passkeyRegistrationOptionsAction,
  proveCodeAction,
  provePasskeyAction,
  registerPasskeyAction,
  startTotpEnrolmentAction,
} from '@/lib/actions/account';

/**
 * The forms that prove or enrol a second factor: used by the sign-in's second step
 * (app/(auth)/login/second-factor), the account page and the step-up dialog.
 */
// The browser's WebAuthn helpers load when a passkey is used: the step-up prompt lives in the
// console's layout, and every page would otherwise download them (`npm run js:budget`).
const webAuthn = () => import('@simplewebauthn/browser');

export function ProveFactorForm({ hasPasskey, onProved }: { hasPasskey: boolean; onProved: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();

  function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const code = String(new FormData(e.currentTarget).get('code') ?? '').trim();
    if (!code) return setError('Enter the 6-digit code from your app, or a recovery code.');
    setError(null);
    start(async () => {
      const r = await proveCodeAction({ code });
      if (r.ok) onProved();
      else setError(r.error);
    });
  }

  function usePasskey() {
    setError(null);
    start(async () => {
      const options = await passkeyAuthenticationOptionsAction({});
      if (!options.ok) return setError(options.error);
      const { startAuthentication } = await webAuthn();
      const response = await startAuthentication({ optionsJSON: options.data }).catch(() => null);
      if (!response) return setError('The passkey was not used. Try again, or enter a code.');
      const r = await provePasskeyAction({ response, label: '' });
      if (r.ok) onProved();
      else setError(r.error);
    });
  }

  return (
    <div className="flex flex-col gap-4">
      <form onSubmit={submit} noValidate className="flex flex-col gap-3">
        <FormField
          id="factor-code"
          label="Code"
          hint="The 6 digits your authenticator app shows now, or one of your recovery codes."
          errors={error}
        >
          {({ id, 'aria-invalid': invalid }) => (
            <Input
              id={id}
              name="code"
              autoComplete="one-time-code"
              inputMode="text"
              autoFocus
              aria-invalid={invalid}
              aria-describedby={invalid ? `${id}-error` : `${id}-hint`}
            />
          )}
        </FormField>
        <Button type="submit" disabled={pending}>
          {pending ? 'Checking…' : 'Verify'}
        </Button>
      </form>
      {hasPasskey ? (
        <Button variant="secondary" onClick={usePasskey} disabled={pending}>
          <KeyRound className="h-4 w-4" aria-hidden /> Use a passkey
        </Button>
      ) : null}
    </div>
  );
}

export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone?: () => void }) {
  return (
    <div className="flex flex-col gap-3">
      <Alert tone="warn">
        Keep these recovery codes somewhere safe, away from your phone. Each works once, if you lose your authenticator.
        They are shown only now.
      </Alert>
      <ul
        aria-label="Recovery codes"
        className="grid grid-cols-2 gap-1 rounded-md border border-border p-3 font-mono text-sm"
      >
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      {onDone ? <Button onClick={onDone}>I have saved them, continue</Button> : null}
    </div>
  );
}

type Enrolled = (recoveryCodes: string[] | null) => void;

export function TotpEnrolment({ onEnrolled }: { onEnrolled: Enrolled }) {
  const [setup, setSetup] = useState<{ factorId: string; secret: string; qr: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();

  const begin = () =>
    start(async () => {
      setError(null);
      const r = await startTotpEnrolmentAction({});
      if (r.ok) setSetup(r.data);
      else setError(r.error);
    });

  function confirm(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!setup) return;
    const code = String(new FormData(e.currentTarget).get('code') ?? '').trim();
    if (!/^\d{6}$/.test(code)) return setError('Enter the 6-digit code your app shows.');
    start(async () => {
      const r = await confirmTotpEnrolmentAction({ factorId: setup.factorId, code });
      if (r.ok) onEnrolled(r.data.recoveryCodes);
      else setError(r.error);
    });
  }

  if (!setup)
    return (
      <div className="flex flex-col gap-2">
        <Button variant="secondary" onClick={begin} disabled={pending}>
          <Smartphone className="h-4 w-4" aria-hidden /> {pending ? 'Preparing…' : 'Set up an authenticator app'}
        </Button>
        <FieldError messages={error} />
      </div>
    );
  return (
    <form onSubmit={confirm} noValidate className="flex flex-col gap-3">
      <p className="text-sm">Scan this code with your authenticator app, then enter the 6 digits it shows.</p>
      {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL made on the server */}
      <img
        src={setup.qr}
        alt="QR code for your authenticator app"
        width={180}
        height={180}
        className="rounded-md border border-border bg-white p-1"
      />
      <p className="text-xs text-muted-fg">
        Cannot scan? Enter this key by hand:{' '}
        <code data-testid="totp-secret" className="break-all font-mono text-fg">
          {setup.secret}
        </code>
      </p>
      <FormField id="totp-code" label="Code from the app" errors={error}>
        {(control) => (
          <Input
            {...control}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            aria-describedby={error ? control['aria-describedby'] : undefined}
          />
        )}
      </FormField>
      <Button type="submit" disabled={pending}>
        {pending ? 'Checking…' : 'Confirm and turn on'}
      </Button>
    </form>
  );
}

export function PasskeyEnrolment({ onEnrolled }: { onEnrolled: Enrolled }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const add = () =>
    start(async () => {
      setError(null);
      const options = await passkeyRegistrationOptionsAction({});
      if (!options.ok) return setError(options.error);
      const { startRegistration } = await webAuthn();
      const response = await startRegistration({ optionsJSON: options.data }).catch(() => null);
      if (!response) return setError('No passkey was created. Try again.');
      const r = await registerPasskeyAction({ response, label: 'Passkey' });
      if (r.ok) onEnrolled(r.data.recoveryCodes);
      else setError(r.error);
    });
  return (
    <div className="flex flex-col gap-2">
      <Button variant="secondary" onClick={add} disabled={pending}>
        <KeyRound className="h-4 w-4" aria-hidden /> {pending ? 'Waiting for your passkey…' : 'Add a passkey'}
      </Button>
      <FieldError messages={error} />
    </div>
  );
}
