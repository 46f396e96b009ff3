import { Button } from '@/components/ui/button';
import { Input, Label, Select } from '@/components/ui/input';
import { ExaminerKey } from './examiner-key';

/**
 * The examiner's export: a plain GET form to the export route, so the browser downloads the
 * streamed file itself. The route checks everything again and answers a bad choice with a message.
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
  return (
    <details className="mb-4 rounded-md border border-border px-3 py-2">
      <summary className="cursor-pointer text-sm font-medium">Export for an examiner</summary>
      <form
        method="get"
        action="/api/audit/export"
        className="mt-3 flex flex-wrap items-end gap-3"
        aria-label="Export the audit log"
      >
        <div className="flex flex-col gap-1">
          <Label htmlFor="x-from">From</Label>
          <Input id="x-from" name="from" type="date" defaultValue={defaults.from} className="w-40" />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="x-to">To</Label>
          <Input id="x-to" name="to" type="date" defaultValue={defaults.to} className="w-40" />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="x-user">User</Label>
          <Select id="x-user" name="user" defaultValue="" className="w-60">
            <option value="">Everyone</option>
            {actors.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </Select>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="x-execution">Execution id</Label>
          <Input id="x-execution" name="execution" placeholder="optional" className="w-80 font-mono text-xs" />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="x-format">Format</Label>
          <Select id="x-format" name="format" defaultValue="csv" className="w-36">
            <option value="csv">CSV</option>
            <option value="jsonl">JSON lines</option>
          </Select>
        </div>
        <Button type="submit" variant="secondary">
          Export
        </Button>
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
