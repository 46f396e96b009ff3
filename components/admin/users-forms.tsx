'use client';
import { useRef, useState, useTransition } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FieldError, Input, Label, Select } from '@/components/ui/input';
import type { ActionResult } from '@/lib/auth/guards';
import { changeRoleAction, createUserAction, setActiveAction, unlockSignInAction } from '@/lib/actions/users';

const ROLE_OPTIONS = [
  { value: 'analyst', label: 'Analyst — review and feedback' },
  { value: 'manager', label: 'Manager — also trends and audit log' },
  { value: 'admin', label: 'Admin — everything' },
];

export function CreateUserForm() {
  const formRef = useRef<HTMLFormElement>(null);
  const [result, setResult] = useState<ActionResult<unknown> | null>(null);
  const [pending, start] = useTransition();
  const fe = result && !result.ok ? (result.fieldErrors ?? {}) : {};
  return (
    <form
      ref={formRef}
      noValidate
      className="flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        start(async () => {
          const r = await createUserAction(data);
          setResult(r);
          if (r.ok) formRef.current?.reset();
        });
      }}
    >
      {result ? (
        <Alert tone={result.ok ? 'success' : 'error'}>
          {result.ok
            ? result.message
            : result.fieldErrors && Object.keys(result.fieldErrors).length > 0
              ? 'Check the highlighted fields.'
              : result.error}
        </Alert>
      ) : null}
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="new-email">E-mail</Label>
        <Input
          id="new-email"
          name="email"
          type="email"
          maxLength={400}
          required
          aria-invalid={Boolean(fe.email)}
          aria-describedby="new-email-error"
        />
        <FieldError id="new-email-error" messages={fe.email} />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="new-name">Name</Label>
        <Input
          id="new-name"
          name="name"
          maxLength={200}
          required
          aria-invalid={Boolean(fe.name)}
          aria-describedby="new-name-error"
        />
        <FieldError id="new-name-error" messages={fe.name} />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="new-role">Role</Label>
        <Select id="new-role" name="role" defaultValue="analyst">
          {ROLE_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </Select>
        <FieldError messages={fe.role} />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="new-password">Password</Label>
        <Input
          id="new-password"
          name="password"
          type="password"
          autoComplete="new-password"
          maxLength={200}
          aria-invalid={Boolean(fe.password)}
          aria-describedby="new-password-hint new-password-error"
        />
        <p id="new-password-hint" className="text-xs text-muted-fg">
          At least 12 characters. Leave empty for a user who signs in only through SSO.
        </p>
        <FieldError id="new-password-error" messages={fe.password} />
      </div>
      <Button type="submit" disabled={pending}>
        {pending ? 'Adding…' : 'Add user'}
      </Button>
    </form>
  );
}

export function UserRowActions({
  user,
  isSelf,
}: {
  user: { id: string; email: string; role: string; active: boolean; lockedAddresses: number };
  isSelf: boolean;
}) {
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const run = (fn: () => Promise<ActionResult<unknown>>) =>
    start(async () => {
      const r = await fn();
      setError(r.ok ? null : r.error);
    });
  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex items-center justify-end gap-2">
        <label className="sr-only" htmlFor={`role-${user.id}`}>
          Role of {user.email}
        </label>
        <Select
          id={`role-${user.id}`}
          className="h-8 w-32 text-xs"
          value={user.role}
          disabled={pending}
          onChange={(e) => run(() => changeRoleAction({ userId: user.id, role: e.target.value as 'analyst' }))}
        >
          <option value="analyst">Analyst</option>
          <option value="manager">Manager</option>
          <option value="admin">Admin</option>
        </Select>
        <Button
          size="sm"
          variant={user.active ? 'secondary' : 'primary'}
          disabled={pending || (isSelf && user.active)}
          title={isSelf && user.active ? 'You cannot deactivate yourself' : undefined}
          onClick={() => run(() => setActiveAction({ userId: user.id, active: user.active ? 'false' : 'true' }))}
          aria-label={`${user.active ? 'Deactivate' : 'Activate'} ${user.email}`}
        >
          {user.active ? 'Deactivate' : 'Activate'}
        </Button>
        {user.lockedAddresses > 0 ? (
          <Button
            size="sm"
            variant="secondary"
            disabled={pending}
            onClick={() => run(() => unlockSignInAction({ userId: user.id }))}
            aria-label={`Unlock sign-in of ${user.email}`}
          >
            Unlock sign-in
          </Button>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className="text-xs text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}
