'use client';
import { useState, useTransition } from 'react';
import { ActionResultAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FieldError, FormField, Input, Label, Select } from '@/components/ui/input';
import type { ActionResult } from '@/lib/auth/guards';
import { useStepUp } from '@/components/account/step-up';
import { useStepUpForm } from '@/components/account/step-up-form';
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
  const { result, pending, fieldErrors: fe, onSubmit } = useStepUpForm((data) => createUserAction(data));
  return (
    <form noValidate className="flex flex-col gap-3" onSubmit={onSubmit}>
      <ActionResultAlert result={result} />
      {result?.ok ? <OneTimeLink data={result.data} /> : null}
      <FormField id="new-email" label="E-mail" errors={fe.email}>
        {(control) => <LimitedInput {...control} limit={EMAIL_MAX} name="email" type="email" required />}
      </FormField>
      <FormField id="new-name" label="Name" errors={fe.name}>
        {(control) => <LimitedInput {...control} limit={USER_NAME_MAX} name="name" required />}
      </FormField>
      <FormField id="new-role" label="Role" errors={fe.role}>
        {({ id }) => (
          <Select id={id} name="role" defaultValue="analyst">
            {ROLE_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </Select>
        )}
      </FormField>
      <FormField
        id="new-sign-in"
        label="Signs in with"
        hint="You never set their password: they choose it through a link that works once, for 24 hours."
        errors={fe.signIn}
      >
        {({ id }) => (
          <Select id={id} name="signIn" defaultValue="password" aria-describedby={`${id}-hint`}>
            <option value="password">A password they choose (one-time link)</option>
            <option value="sso">Company SSO only</option>
          </Select>
        )}
      </FormField>
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
      <FieldError messages={result && !result.ok ? result.error : null} />
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
