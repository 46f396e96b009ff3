'use client';
import { useStepUp } from '@/components/account/step-up';
import { useStepUpForm } from '@/components/account/step-up-form';
import { useState, useTransition } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FieldError, FormField, Input, Select } from '@/components/ui/input';
import { createApiKeyAction, revokeApiKeyAction } from '@/lib/actions/api-keys';
import { API_KEY_DAY_OPTIONS, API_KEY_NAME_MAX } from '@/lib/actions/schemas/api-keys';
import { LimitedInput } from '@/components/ui/limited-field';

export function CreateApiKeyForm() {
  const { result, pending, fieldErrors: fe, onSubmit } = useStepUpForm((data) => createApiKeyAction(data));
  return (
    <div className="flex flex-col gap-3">
      {result?.ok ? (
        // The key lives only in this component's state: leaving or reloading the page drops it.
        <Alert tone="success" data-testid="new-api-key">
          <p className="font-medium">{result.message}</p>
          <label className="sr-only" htmlFor="new-api-key-value">
            New API key
          </label>
          <Input
            id="new-api-key-value"
            readOnly
            value={result.data.key}
            className="mt-2 font-mono text-xs"
            onFocus={(e) => e.currentTarget.select()}
          />
          <Button
            type="button"
            size="sm"
            variant="secondary"
            className="mt-2"
            onClick={() => void navigator.clipboard?.writeText(result.data.key)}
          >
            Copy
          </Button>
        </Alert>
      ) : result ? (
        <Alert tone="error">{result.error}</Alert>
      ) : null}
      <form noValidate className="flex flex-col gap-3" onSubmit={onSubmit}>
        <FormField id="api-key-name" label="Name" errors={fe.name}>
          {(control) => (
            <LimitedInput {...control} limit={API_KEY_NAME_MAX} name="name" required placeholder="Onboarding service" />
          )}
        </FormField>
        <FormField id="api-key-days" label="Expires after" errors={fe.days}>
          {({ id }) => (
            <Select id={id} name="days" defaultValue="90">
              {API_KEY_DAY_OPTIONS.map((d) => (
                <option key={d} value={d}>
                  {d} days
                </option>
              ))}
            </Select>
          )}
        </FormField>
        <p className="text-xs text-muted-fg">Keys are read-only: they read changes, summaries, feedback and trends.</p>
        <Button type="submit" disabled={pending}>
          {pending ? 'Creating…' : 'Create key'}
        </Button>
      </form>
    </div>
  );
}

export function RevokeApiKeyButton({ keyId, name }: { keyId: string; name: string }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const stepUp = useStepUp();
  return (
    <div className="flex flex-col items-end gap-1">
      <Button
        size="sm"
        variant="danger"
        disabled={pending}
        aria-label={`Revoke ${name}`}
        onClick={() => {
          if (!window.confirm(`Revoke the key "${name}"? Anything using it stops working at once.`)) return;
          start(async () => {
            const r = await stepUp(() => revokeApiKeyAction({ keyId }));
            setError(r.ok ? null : r.error);
          });
        }}
      >
        {pending ? 'Revoking…' : 'Revoke'}
      </Button>
      <FieldError messages={error} />
    </div>
  );
}
