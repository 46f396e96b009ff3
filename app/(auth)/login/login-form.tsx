'use client';
import { signIn } from 'next-auth/react';
import { useRouter, useSearchParams } from 'next/navigation';
import { useState, useTransition } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField, Input } from '@/components/ui/input';
import { safeNext } from '@/lib/auth/safe-next';
import { SIGN_IN_REFUSED } from '@/lib/auth/sign-in-messages';

export function LoginForm({ oidcName }: { oidcName: string | null }) {
  const router = useRouter();
  const params = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({});
  const [pending, start] = useTransition();
  // Resolved in the browser, against the origin the browser will navigate from.
  const destination = () => safeNext(params.get('next'), window.location.origin);

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const email = String(form.get('email') ?? '').trim();
    const password = String(form.get('password') ?? '');
    const fe: typeof fieldErrors = {};
    if (!email) fe.email = 'Enter your e-mail address.';
    if (!password) fe.password = 'Enter your password.';
    setFieldErrors(fe);
    setError(null);
    if (fe.email || fe.password) return;
    start(async () => {
      const res = await signIn('credentials', { email, password, redirect: false });
      if (!res || res.error) {
        setError(res?.error && res.error !== 'CredentialsSignin' ? res.error : SIGN_IN_REFUSED);
        return;
      }
      router.replace(destination());
      router.refresh();
    });
  }

  return (
    <div className="flex flex-col gap-4">
      <form
        onSubmit={onSubmit}
        noValidate
        className="flex flex-col gap-4 rounded-lg border border-border bg-card p-5 shadow-sm"
        aria-describedby={error ? 'login-error' : undefined}
      >
        {error ? (
          <Alert tone="error" id="login-error">
            {error}
          </Alert>
        ) : null}
        <FormField id="email" label="E-mail" errors={fieldErrors.email}>
          {(control) => (
            <Input {...control} name="email" type="email" autoComplete="username" autoFocus maxLength={320} />
          )}
        </FormField>
        <FormField id="password" label="Password" errors={fieldErrors.password}>
          {(control) => (
            <Input {...control} name="password" type="password" autoComplete="current-password" maxLength={1000} />
          )}
        </FormField>
        <Button type="submit" disabled={pending}>
          {pending ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
      {oidcName ? (
        <Button variant="secondary" onClick={() => signIn('oidc', { callbackUrl: destination() })}>
          Sign in with {oidcName}
        </Button>
      ) : null}
    </div>
  );
}
