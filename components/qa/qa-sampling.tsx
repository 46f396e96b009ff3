'use client';
import { Loader2 } from 'lucide-react';
import { useRouter } from 'next/navigation';
import * as React from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField, Input, Label, Select } from '@/components/ui/input';
import { getQaSamplingProgressAction, saveQaSettingsAction, startQaSamplingAction } from '@/lib/actions/qa';
import type { QaRunView } from '@/lib/qa/quality';
import type { QaSettings } from '@/lib/qa/schema';
import { useActionForm } from './use-action-form';
import { LocalTime } from '@/components/time/local-time';

const SETTINGS_FIELDS = [
  {
    id: 'qa-rate',
    name: 'ratePercent',
    label: 'Rate (% of each person’s resolved cases a week)',
    min: 0.1,
    max: 100,
    step: 0.1,
  },
  { id: 'qa-min', name: 'minPerAnalyst', label: 'At least (cases per person)', min: 0, max: 50, step: 1 },
] as const;

/** The rate a manager sets: a share of each person's resolved cases per week, at least a minimum. */
export function QaSettingsForm({ settings }: { settings: QaSettings & { updatedAt: string | null } }) {
  const router = useRouter();
  const { pending, errors, message, submit } = useActionForm(saveQaSettingsAction, () => router.refresh());
  return (
    <form
      aria-label="Sampling rate"
      className="flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        submit(new FormData(e.currentTarget));
      }}
    >
      <div className="flex flex-wrap items-end gap-3">
        {SETTINGS_FIELDS.map((f) => (
          <FormField key={f.name} id={f.id} label={f.label} errors={errors[f.name]} className="gap-1">
            {({ id, 'aria-invalid': invalid }) => (
              <Input
                id={id}
                name={f.name}
                type="number"
                min={f.min}
                max={f.max}
                step={f.step}
                defaultValue={settings[f.name]}
                className="w-32"
                aria-invalid={invalid}
              />
            )}
          </FormField>
        ))}
        <label className="flex items-center gap-2 pb-2 text-sm">
          <input type="checkbox" name="enabled" defaultChecked={settings.enabled} className="accent-[var(--primary)]" />
          Sample every Monday
        </label>
        <Button type="submit" variant="secondary" disabled={pending}>
          {pending ? 'Saving…' : 'Save rate'}
        </Button>
      </div>
      <p className="text-xs text-muted-fg">
        {settings.updatedAt ? (
          <>
            Last changed <LocalTime value={settings.updatedAt} /> (in the audit log).
          </>
        ) : (
          'The default rate; not changed yet.'
        )}
      </p>
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
    </form>
  );
}

const runText = (r: QaRunView): React.ReactNode =>
  r.state === 'completed' ? (
    <>
      {`Week of ${r.week}: ${r.sampled} case${r.sampled === 1 ? '' : 's'} sampled from ${r.total ?? 0} ${r.total === 1 ? 'person' : 'people'}, `}
      <LocalTime value={r.finishedAt} />.
    </>
  ) : r.state === 'failed' ? (
    `Week of ${r.week}: the sampling failed (${r.error ?? 'error'}); it is retried.`
  ) : (
    `Week of ${r.week}: sampling… ${r.done} of ${r.total ?? '?'} people, ${r.sampled} sampled.`
  );

/** "Sample now" for a chosen week, with the job's progress until it finishes. */
export function QaSamplingControl({
  weeks,
  initial,
}: {
  weeks: Array<{ value: string; label: string }>;
  initial: QaRunView | null;
}) {
  const router = useRouter();
  const [run, setRun] = React.useState(initial);
  const [busy, start] = React.useTransition();
  const [error, setError] = React.useState<string | null>(null);
  const active = run && (run.state === 'queued' || run.state === 'running');
  React.useEffect(() => {
    if (!active) return;
    const t = setInterval(async () => {
      const r = await getQaSamplingProgressAction({});
      if (!r.ok) return;
      setRun(r.data);
      if (r.data && r.data.state !== 'queued' && r.data.state !== 'running') router.refresh();
    }, 1000);
    return () => clearInterval(t);
  }, [active, router]);
  return (
    <form
      aria-label="Sample now"
      className="flex flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        const fd = new FormData(e.currentTarget);
        start(async () => {
          const r = await startQaSamplingAction(fd);
          if (!r.ok) return setError(r.error);
          setError(null);
          const p = await getQaSamplingProgressAction({});
          if (p.ok) setRun(p.data);
        });
      }}
    >
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1">
          <Label htmlFor="qa-week">Week</Label>
          <Select id="qa-week" name="week" defaultValue={weeks[1]?.value} className="w-72 max-w-full">
            {weeks.map((w) => (
              <option key={w.value} value={w.value}>
                {w.label}
              </option>
            ))}
          </Select>
        </div>
        <Button type="submit" disabled={busy || Boolean(active)}>
          {busy || active ? <Loader2 aria-hidden className="h-4 w-4 animate-spin" /> : null}
          Sample now
        </Button>
      </div>
      <p role="status" aria-live="polite" className="text-sm" data-testid="qa-run">
        {run ? runText(run) : 'No sampling run recorded yet: the figures below count every sampled case.'}
      </p>
      {run && active && run.total ? (
        <progress className="h-2 w-full max-w-md" max={run.total} value={run.done} aria-label="Sampling progress" />
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
    </form>
  );
}
