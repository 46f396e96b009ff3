'use client';
import { useStepUp } from '@/components/account/step-up';
import { useStepUpForm } from '@/components/account/step-up-form';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { ActionResultAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { FieldError, FormField, Input, Label, Select } from '@/components/ui/input';
import type { ActionResult } from '@/lib/auth/guards';
import {
  createWebhookEndpointAction,
  deleteWebhookEndpointAction,
  rotateWebhookSecretAction,
  setWebhookEndpointEnabledAction,
  updateWebhookEndpointAction,
} from '@/lib/actions/webhooks';
import { DESCRIPTION_MAX } from '@/lib/actions/schemas/webhooks';
import { LimitedInput } from '@/components/ui/limited-field';
import {
  EVENT_TYPE_LABELS,
  MAX_URL_LENGTH,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
} from '@/lib/webhooks/event-types';

type Result = ActionResult<unknown> | null;

/** The event types as checkboxes in a fieldset (arrow keys are not needed: Tab and Space suffice). */
function EventTypeFields({ idPrefix, selected, errors }: { idPrefix: string; selected?: string[]; errors?: string[] }) {
  return (
    <fieldset className="flex flex-col gap-1.5" aria-describedby={`${idPrefix}-events-error`}>
      <legend className="mb-1 text-sm font-medium">Events</legend>
      {WEBHOOK_EVENT_TYPES.map((t) => (
        <label key={t} className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            name="eventTypes"
            value={t}
            defaultChecked={selected ? selected.includes(t) : true}
            className="mt-0.5"
          />
          <span>
            <code className="text-xs">{t}</code>
            <span className="block text-xs text-muted-fg">{EVENT_TYPE_LABELS[t]}</span>
          </span>
        </label>
      ))}
      <FieldError id={`${idPrefix}-events-error`} messages={errors} />
    </fieldset>
  );
}

const checkedTypes = (form: HTMLFormElement) =>
  new FormData(form).getAll('eventTypes').map(String) as WebhookEventType[];

/** A signing secret, shown once with a copy button; the page never shows it again. */
export function SecretOnce({ secret }: { secret: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="flex flex-col gap-2 rounded-md border border-warn/50 bg-warn/5 p-3">
      <p className="text-sm font-medium">Signing secret — copy it now, it is not shown again</p>
      <div className="flex items-center gap-2">
        <code data-testid="webhook-secret" className="min-w-0 flex-1 break-all rounded bg-muted px-2 py-1 text-xs">
          {secret}
        </code>
        <Button
          size="sm"
          variant="secondary"
          onClick={() =>
            void navigator.clipboard?.writeText(secret).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <p className="text-xs text-muted-fg">
        Receivers verify each request with it (README, &ldquo;Webhooks&rdquo;). Verdict keeps it encrypted.
      </p>
    </div>
  );
}

/** `destinations`: what this deployment lets an endpoint point at (lib/webhooks/outbound.ts `describePolicy`). */
export function CreateWebhookForm({ destinations }: { destinations: string }) {
  const {
    result,
    pending,
    fieldErrors: fe,
    onSubmit,
  } = useStepUpForm((data, form) =>
    createWebhookEndpointAction({
      url: String(data.get('url') ?? ''),
      description: String(data.get('description') ?? ''),
      eventTypes: checkedTypes(form),
    }),
  );
  return (
    <form noValidate aria-label="Add an endpoint" className="flex flex-col gap-3" onSubmit={onSubmit}>
      <ActionResultAlert result={result} />
      {result?.ok ? (
        <>
          <SecretOnce secret={result.data.secret} />
          <Link href={`/admin/webhooks/${result.data.id}`} className="text-sm text-primary hover:underline">
            Open the endpoint: send a test event, see its log
          </Link>
        </>
      ) : null}
      <FormField
        id="webhook-url"
        label="URL"
        hint={
          <>
            http:// or https://, at most {MAX_URL_LENGTH.toLocaleString('en')} characters, not Verdict itself nor the
            verification service. <span data-testid="webhook-destinations">{destinations}</span>
          </>
        }
        errors={fe.url}
      >
        {(control) => (
          <Input
            {...control}
            name="url"
            type="url"
            inputMode="url"
            placeholder="https://example.com/webhooks/verdict"
            required
          />
        )}
      </FormField>
      <FormField id="webhook-description" label="Description" errors={fe.description}>
        {(control) => (
          <LimitedInput {...control} limit={DESCRIPTION_MAX} name="description" placeholder="Onboarding service" />
        )}
      </FormField>
      <EventTypeFields idPrefix="new" errors={fe.eventTypes} />
      <Button type="submit" disabled={pending}>
        {pending ? 'Adding…' : 'Add endpoint'}
      </Button>
    </form>
  );
}

export function EditWebhookForm({ endpoint }: { endpoint: { id: string; description: string; eventTypes: string[] } }) {
  const {
    result,
    pending,
    fieldErrors: fe,
    onSubmit,
  } = useStepUpForm(
    (data, form) =>
      updateWebhookEndpointAction({
        endpointId: endpoint.id,
        description: String(data.get('description') ?? ''),
        eventTypes: checkedTypes(form),
      }),
    { keep: true },
  );
  return (
    <form noValidate aria-label="Endpoint settings" className="flex flex-col gap-3" onSubmit={onSubmit}>
      <ActionResultAlert result={result} />
      <FormField id="edit-description" label="Description" errors={fe.description}>
        {({ id, 'aria-invalid': invalid }) => (
          <LimitedInput
            id={id}
            limit={DESCRIPTION_MAX}
            name="description"
            defaultValue={endpoint.description}
            aria-invalid={invalid}
          />
        )}
      </FormField>
      <EventTypeFields idPrefix="edit" selected={endpoint.eventTypes} errors={fe.eventTypes} />
      <Button type="submit" variant="secondary" disabled={pending}>
        {pending ? 'Saving…' : 'Save'}
      </Button>
    </form>
  );
}

/** Enable / disable, rotate the secret with an overlap, delete. */
export function EndpointControls({ endpoint }: { endpoint: { id: string; url: string; enabled: boolean } }) {
  const router = useRouter();
  const [result, setResult] = useState<Result>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [overlap, setOverlap] = useState('24');
  const [pending, start] = useTransition();
  const stepUp = useStepUp();
  return (
    <div className="flex flex-col gap-3">
      <ActionResultAlert result={result} />
      {secret ? <SecretOnce secret={secret} /> : null}
      <div className="flex flex-wrap items-end gap-2">
        <Button
          variant={endpoint.enabled ? 'secondary' : 'primary'}
          disabled={pending}
          onClick={() =>
            start(async () =>
              setResult(await setWebhookEndpointEnabledAction({ endpointId: endpoint.id, enabled: !endpoint.enabled })),
            )
          }
        >
          {endpoint.enabled ? 'Disable' : 'Enable'}
        </Button>
      </div>
      <div className="flex flex-wrap items-end gap-2">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="rotate-overlap">Previous secret keeps signing for</Label>
          <Select id="rotate-overlap" className="w-44" value={overlap} onChange={(e) => setOverlap(e.target.value)}>
            <option value="0">No overlap</option>
            <option value="1">1 hour</option>
            <option value="24">24 hours</option>
            <option value="72">3 days</option>
            <option value="168">7 days</option>
          </Select>
        </div>
        <Button
          variant="secondary"
          disabled={pending}
          onClick={() =>
            start(async () => {
              const r = await stepUp(() =>
                rotateWebhookSecretAction({ endpointId: endpoint.id, overlapHours: overlap }),
              );
              setResult(r);
              setSecret(r.ok ? r.data.secret : null);
            })
          }
        >
          Rotate secret
        </Button>
      </div>
      <Dialog>
        <DialogTrigger asChild>
          <Button variant="danger" className="self-start" disabled={pending}>
            Delete endpoint
          </Button>
        </DialogTrigger>
        <DialogContent
          title="Delete this endpoint?"
          description={`${endpoint.url} receives nothing more, and its delivery log is deleted with it.`}
        >
          <div className="flex justify-end gap-2">
            <DialogClose asChild>
              <Button variant="secondary">Keep it</Button>
            </DialogClose>
            <Button
              variant="danger"
              disabled={pending}
              onClick={() =>
                start(async () => {
                  const r = await stepUp(() => deleteWebhookEndpointAction({ endpointId: endpoint.id }));
                  if (r.ok) router.push('/admin/webhooks');
                  else setResult(r);
                })
              }
            >
              Delete
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </div>
  );
}
