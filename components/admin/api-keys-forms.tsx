'use client';
import { useStepUp } from '@/components/account/step-up';
import { useRef, useState, useTransition } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FieldError, Input, Label, Select } from '@/components/ui/input';
import type { ActionResult } from '@/lib/auth/guards';
import { createApiKeyAction, revokeApiKeyAction } from '@/lib/actions/api-keys';
import { API_KEY_DAY_OPTIONS, API_KEY_NAME_MAX } from '@/lib/actions/schemas/api-keys';
import { LimitedInput } from '@/components/ui/limited-field';

type Created = { key: string; prefix: string; expiresAt: string };

export function CreateApiKeyForm() {
  const formRef = useRef<HTMLFormElement>(null);
  const [result, setResult] = useState<ActionResult<Created> | null>(null);
  const [pending, start] = useTransition();
  const stepUp = useStepUp();
  const fe = result && !result.ok ? (result.fieldErrors ?? {}) : {};
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
      <form
        ref={formRef}
        noValidate
        className="flex flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          const data = new FormData(e.currentTarget);
          start(async () => {
            const r = await stepUp(() => createApiKeyAction(data));
            setResult(r);
            if (r.ok) formRef.current?.reset();
          });
        }}
      >
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="api-key-name">Name</Label>
          <LimitedInput
            id="api-key-name"
            limit={API_KEY_NAME_MAX}
            name="name"
            required
            placeholder="Onboarding service"
            aria-invalid={Boolean(fe.name)}
            aria-describedby="api-key-name-error"
          />
          <FieldError id="api-key-name-error" messages={fe.name} />
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="api-key-days">Expires after</Label>
          <Select id="api-key-days" name="days" defaultValue="90">
            {API_KEY_DAY_OPTIONS.map((d) => (
              <option key={d} value={d}>
                {d} days
              </option>
            ))}
          </Select>
          <FieldError messages={fe.days} />
        </div>
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
      {error ? (
        <p role="alert" className="text-xs text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}
