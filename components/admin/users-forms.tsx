'use client';
import { useRef, useState, useTransition } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FieldError, Input, Label, Select } from '@/components/ui/input';
import type { ActionResult } from '@/lib/auth/guards';
import { useStepUp } from '@/components/account/step-up';
import { Dialog, DialogClose, DialogContent } from '@/components/ui/dialog';
import {
  changeRoleAction,
  createUserAction,
  resetPasswordAction,
  setActiveAction,
  unlockSignInAction,
} from '@/lib/actions/users';
import { LimitedInput } from '@/components/ui/limited-field';
import { EMAIL_MAX, USER_NAME_MAX } from '@/lib/actions/schemas/users';

const ROLE_OPTIONS = [
  { value: 'analyst', label: 'Analyst — review and feedback' },
  { value: 'manager', label: 'Manager — also trends and audit log' },
  { value: 'admin', label: 'Admin — everything' },
];

export function CreateUserForm() {
  const formRef = useRef<HTMLFormElement>(null);
  const [result, setResult] = useState<ActionResult<unknown> | null>(null);
  const [pending, start] = useTransition();
  const stepUp = useStepUp();
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
          const r = await stepUp(() => createUserAction(data));
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
      {result?.ok ? <OneTimeLink data={result.data} /> : null}
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="new-email">E-mail</Label>
        <LimitedInput
          id="new-email"
          limit={EMAIL_MAX}
          name="email"
          type="email"
          required
          aria-invalid={Boolean(fe.email)}
          aria-describedby="new-email-error"
        />
        <FieldError id="new-email-error" messages={fe.email} />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="new-name">Name</Label>
        <LimitedInput
          id="new-name"
          limit={USER_NAME_MAX}
          name="name"
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
        <Label htmlFor="new-sign-in">Signs in with</Label>
        <Select id="new-sign-in" name="signIn" defaultValue="password" aria-describedby="new-sign-in-hint">
          <option value="password">A password they choose (one-time link)</option>
          <option value="sso">Company SSO only</option>
        </Select>
        <p id="new-sign-in-hint" className="text-xs text-muted-fg">
          You never set their password: they choose it through a link that works once, for 24 hours.
        </p>
        <FieldError messages={fe.signIn} />
      </div>
      <Button type="submit" disabled={pending}>
        {pending ? 'Adding…' : 'Add user'}
      </Button>
    </form>
  );
}

/** The one-time link of a new or reset password user, shown once: the admin sends it to them. */
function OneTimeLink({ data }: { data: unknown }) {
  const path = (data as { linkPath?: string | null } | null)?.linkPath;
  if (!path) return null;
  const url = `${window.location.origin}${path}`;
  return (
    <div className="flex flex-col gap-1">
      <Label htmlFor="one-time-link">One-time link (shown only now)</Label>
      <Input
        id="one-time-link"
        readOnly
        value={url}
        onFocus={(e) => e.currentTarget.select()}
        className="font-mono text-xs"
      />
    </div>
  );
}

type Confirmation = {
  title: string;
  description: string;
  confirm: string;
  danger?: boolean;
  run: () => Promise<ActionResult<unknown>>;
};

export function UserRowActions({
  user,
  isSelf,
}: {
  user: {
    id: string;
    email: string;
    name: string;
    role: string;
    active: boolean;
    lockedAddresses: number;
    sso: boolean;
  };
  isSelf: boolean;
}) {
  const [result, setResult] = useState<ActionResult<unknown> | null>(null);
  const [asking, setAsking] = useState<Confirmation | null>(null);
  const [pending, start] = useTransition();
  const stepUp = useStepUp();
  const run = (fn: () => Promise<ActionResult<unknown>>) =>
    start(async () => {
      setResult(await stepUp(fn));
    });
  const who = `${user.name} (${user.email})`;
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
          onChange={(e) => {
            const role = e.target.value as 'analyst' | 'manager' | 'admin';
            setAsking({
              title: `Make ${user.name} ${role === 'admin' ? 'an' : 'a'} ${role}?`,
              description: `${who} becomes ${role}, with that role's rights from their next page.`,
              confirm: `Make ${role}`,
              run: () => changeRoleAction({ userId: user.id, role }),
            });
          }}
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
          onClick={() =>
            user.active
              ? setAsking({
                  title: `Deactivate ${user.name}?`,
                  description: `${who} is signed out at once and cannot sign in until activated again.`,
                  confirm: 'Deactivate',
                  danger: true,
                  run: () => setActiveAction({ userId: user.id, active: 'false' }),
                })
              : run(() => setActiveAction({ userId: user.id, active: 'true' }))
          }
          aria-label={`${user.active ? 'Deactivate' : 'Activate'} ${user.email}`}
        >
          {user.active ? 'Deactivate' : 'Activate'}
        </Button>
        {!user.sso && !isSelf ? (
          <Button
            size="sm"
            variant="secondary"
            disabled={pending}
            aria-label={`Reset the password of ${user.email}`}
            onClick={() =>
              setAsking({
                title: `Reset the password of ${user.name}?`,
                description: `${who} is signed out and their password stops working; you get a one-time link for them to choose a new one.`,
                confirm: 'Reset password',
                danger: true,
                run: () => resetPasswordAction({ userId: user.id }),
              })
            }
          >
            Reset password
          </Button>
        ) : null}
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
      {result && !result.ok ? (
        <p role="alert" className="text-xs text-danger">
          {result.error}
        </p>
      ) : null}
      {result?.ok && (result.data as { linkPath?: string } | null)?.linkPath ? (
        <div className="w-full max-w-md text-left">
          <OneTimeLink data={result.data} />
        </div>
      ) : null}
      <Dialog open={asking !== null} onOpenChange={(o) => (o ? null : setAsking(null))}>
        {asking ? (
          <DialogContent title={asking.title} description={asking.description}>
            <div className="flex justify-end gap-2">
              <DialogClose asChild>
                <Button variant="secondary">Cancel</Button>
              </DialogClose>
              <Button
                variant={asking.danger ? 'danger' : 'primary'}
                onClick={() => {
                  const fn = asking.run;
                  setAsking(null);
                  run(fn);
                }}
              >
                {asking.confirm}
              </Button>
            </div>
          </DialogContent>
        ) : null}
      </Dialog>
    </div>
  );
}
