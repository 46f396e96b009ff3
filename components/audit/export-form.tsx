'use client';
import * as React from 'react';
import { useStepUp } from '@/components/account/step-up';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField, Input, Select } from '@/components/ui/input';
import { useCheckedDownload } from '@/components/ui/use-checked-download';
import { confirmStepUpAction } from '@/lib/actions/account';
import { DateInput } from '@/components/ui/date-input';
import { ActorSelect } from './actor-select';
import { ExaminerKey } from './examiner-key';

/**
 * The examiner's export: a GET form to the export route, so the browser downloads the streamed
 * file itself. Before that the form asks the route to check the request: a refusal
 * (no period, a range over a year, an unknown user) shows here, with the choices kept, instead of
 * the route's JSON replacing the page. Without script the form still works as a plain GET.
 */
export function AuditExportForm({
  actors,
  defaults,
  publicKey,
}: {
  actors: string[];
  defaults: { from?: string; to?: string };
  publicKey: { pem: string; keyId: string };
}) {
  const { download, error, checking } = useCheckedDownload();
  const stepUp = useStepUp();
  const onSubmit = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const qs = new URLSearchParams();
    for (const [k, v] of new FormData(e.currentTarget)) if (typeof v === 'string' && v.trim()) qs.set(k, v.trim());
    // The route asks for a fresh second factor (step-up) before it checks the request itself.
    void stepUp(() => confirmStepUpAction({})).then((r) => {
      if (r.ok) download(`/api/audit/export?${qs}`);
    });
  };
  return (
    <details className="mb-4 rounded-md border border-border px-3 py-2">
      <summary className="cursor-pointer text-sm font-medium">Export for an examiner</summary>
      <form
        method="get"
        action="/api/audit/export"
        className="mt-3 flex flex-wrap items-start gap-3"
        aria-label="Export the audit log"
        onSubmit={onSubmit}
        aria-describedby={error ? 'x-error' : undefined}
      >
        <FormField id="x-from" label="From" className="gap-1">
          {({ id }) => <DateInput id={id} name="from" defaultValue={defaults.from} hint="UTC" />}
        </FormField>
        <FormField id="x-to" label="To" className="gap-1">
          {({ id }) => <DateInput id={id} name="to" defaultValue={defaults.to} hint="UTC" />}
        </FormField>
        <FormField id="x-user" label="User" className="gap-1">
          {({ id }) => <ActorSelect id={id} name="user" defaultValue="" actors={actors} />}
        </FormField>
        <FormField id="x-execution" label="Execution id" className="gap-1">
          {({ id }) => <Input id={id} name="execution" placeholder="optional" className="w-80 font-mono text-xs" />}
        </FormField>
        <FormField id="x-format" label="Format" className="gap-1">
          {({ id }) => (
            <Select id={id} name="format" defaultValue="csv" className="w-36">
              <option value="csv">CSV</option>
              <option value="jsonl">JSON lines</option>
            </Select>
          )}
        </FormField>
        <Button type="submit" variant="secondary" disabled={checking} className="mt-6">
          {checking ? 'Checking…' : 'Export'}
        </Button>
        {error ? (
          <Alert tone="error" id="x-error" className="w-full">
            {error}
          </Alert>
        ) : null}
        <p className="w-full text-xs text-muted-fg">
          A period of at most a year, a user (with a period) or an execution. Every entry carries its position and chain
          hashes, and the file ends with a signed manifest; <code>npm run audit -- verify-export &lt;file&gt;</code>{' '}
          checks the file offline. The export is recorded in this log.
        </p>
      </form>
      <ExaminerKey {...publicKey} />
    </details>
  );
}
