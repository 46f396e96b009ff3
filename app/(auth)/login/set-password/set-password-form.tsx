'use client';
import Link from 'next/link';
import { useState, useSyncExternalStore, useTransition } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FieldError, FormField, Input } from '@/components/ui/input';

const onHashChange = (notify: () => void) => {
  window.addEventListener('hashchange', notify);
  return () => window.removeEventListener('hashchange', notify);
};

export function SetPasswordForm() {
  // The token is in the fragment, which only the browser knows (null while rendered on the server).
  const token = useSyncExternalStore(
    onHashChange,
    () => window.location.hash.slice(1),
    () => null,
  );
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [pending, start] = useTransition();

  // Done first: the token leaves the address once used (replaceState below), and each render reads the address.
  if (done)
    return (
      <div className="flex flex-col gap-3">
        <Alert tone="success">Your password is set for {done}. Sign in with it now.</Alert>
        <Button asChild>
          <Link href="/login">Go to sign-in</Link>
        </Button>
      </div>
    );
  if (token === null) return <p className="text-sm text-muted-fg">Loading…</p>;
  if (!token)
    return <Alert tone="error">This page needs the link an administrator gave you. Open that link again.</Alert>;

  function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const password = String(data.get('password') ?? '');
    if (password !== String(data.get('confirm') ?? '')) return setError('The two passwords are not the same.');
    setError(null);
    start(async () => {
      const res = await fetch('/api/account/password-link', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token, password }),
      });
      const body = (await res.json().catch(() => ({}))) as { detail?: string; email?: string };
      if (res.ok) {
        history.replaceState(null, '', window.location.pathname);
        setDone(body.email ?? 'your account');
      } else setError(body.detail ?? 'Something went wrong. Try again.');
    });
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3">
      {/* The form's one error is about both fields: it stands below them, not in either. */}
      <FormField
        id="new-password"
        label="New password"
        hint="At least 12 characters, and not a common one: a few unrelated words work well."
      >
        {({ id }) => (
          <Input
            id={id}
            name="password"
            type="password"
            autoComplete="new-password"
            aria-invalid={Boolean(error)}
            aria-describedby={`${id}-hint set-password-error`}
          />
        )}
      </FormField>
      <FormField id="confirm-password" label="Repeat it">
        {({ id }) => <Input id={id} name="confirm" type="password" autoComplete="new-password" />}
      </FormField>
      <FieldError id="set-password-error" messages={error} />
      <Button type="submit" disabled={pending}>
        {pending ? 'Saving…' : 'Set password'}
      </Button>
    </form>
  );
}
