import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from '@/lib/audit';
import { auditExportChunks, parseAuditExport, sealForExport, type AuditExportFilter } from '@/lib/data/audit-export';
import { db } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { verifyExportFile } from '@/lib/evidence/export-file';

/** The examiner's export against a real database: its refusals, and files that verify offline until a line changes. */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-audit-export-'));
const execution = randomUUID();
const examiner = { id: randomUUID(), email: `examiner-${Date.now()}@example.test` };
const q = (p: Record<string, string>) => parseAuditExport(new URLSearchParams(p));

async function write(f: AuditExportFilter, name: string) {
  const file = path.join(dir, name);
  let text = '';
  for await (const chunk of auditExportChunks(f, 3)) text += chunk;
  fs.writeFileSync(file, text);
  return file;
}

beforeAll(async () => {
  await db().insert(users).values({ id: examiner.id, email: examiner.email, name: 'Examiner', role: 'manager' });
  // Values that a spreadsheet or a careless writer would alter: formulas, quotes, line breaks, empty text.
  const awkward = [
    { action: 'execution.view', details: { revealed: false } },
    { action: 'pii.reveal', details: { reason: '=HYPERLINK("http://x")', minutes: 15, list: [1, -2] } },
    { action: 'image.view', details: { note: 'two\nlines, "quoted"', empty: '' } },
    { action: 'execution.view', details: null },
    { action: 'pii.hide', details: { reason: "'@sum" } },
  ];
  for (const a of awkward)
    await audit({
      ...a,
      details: a.details ?? undefined,
      actor: examiner,
      targetType: 'execution',
      targetId: execution,
      ip: '198.51.100.4',
    });
  await audit({ action: 'other.entry', actor: examiner, ip: null });
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('audit export', () => {
  it('answers bad input with a 4xx and a sentence, never an error', async () => {
    expect(await q({})).toMatchObject({ ok: false, status: 400, detail: expect.stringMatching(/Choose a period/) });
    expect(await q({ from: '2026-13-45', to: '2026-11-01' })).toMatchObject({
      ok: false,
      status: 400,
      detail: 'from must be a date (YYYY-MM-DD) or an ISO 8601 time',
    });
    expect(await q({ from: 'yesterday', to: '2026-11-01' })).toMatchObject({ status: 400 });
    expect(await q({ from: '2025-01-01', to: '2026-06-01' })).toMatchObject({
      status: 400,
      detail: expect.stringMatching(/longer than a year/),
    });
    expect(await q({ from: '2026-02-01', to: '2026-01-01' })).toMatchObject({ status: 400 });
    expect(await q({ from: '2026-01-01' })).toMatchObject({ status: 400, detail: expect.stringMatching(/both/) });
    expect(await q({ user: 'nobody@example.test', from: '2026-01-01', to: '2026-02-01' })).toMatchObject({
      ok: false,
      status: 404,
      detail: 'No user nobody@example.test is known to Verdict.',
    });
    expect(await q({ user: examiner.email })).toMatchObject({ status: 400, detail: expect.stringMatching(/period/) });
    expect(await q({ execution: randomUUID() })).toMatchObject({ status: 404 });
    expect(await q({ execution: 'not-a-uuid' })).toMatchObject({ status: 400 });
    expect(await q({ execution, format: 'xml' })).toMatchObject({ status: 400, detail: 'format must be csv or jsonl' });
    expect(await q({ execution })).toMatchObject({ ok: true, filter: { execution, format: 'csv' } });
  });

  it('an execution export verifies offline in both formats, and a changed line is named', async () => {
    // Entries not yet sealed have no place in the chain and stay out of the file until they do.
    const early = await q({ execution, format: 'jsonl' });
    if (!early.ok) throw new Error(early.detail);
    expect(await verifyExportFile(await write(early.filter, 'early.jsonl'))).toMatchObject({ ok: true, entries: 0 });
    expect(await sealForExport()).toEqual({ unsealed: 0 });
    for (const format of ['csv', 'jsonl'] as const) {
      const parsed = await q({ execution, format });
      if (!parsed.ok) throw new Error(parsed.detail);
      const file = await write(parsed.filter, `execution.${format}`);
      const ok = await verifyExportFile(file);
      expect(ok).toMatchObject({ ok: true, format, entries: 5, failure: null });

      const lines = fs.readFileSync(file, 'utf8').split('\n');
      // The third entry: line 4 of the CSV (after the header), line 3 of the JSON lines.
      const n = format === 'csv' ? 4 : 3;
      expect(lines[n - 1]).toContain('image.view');
      lines[n - 1] = lines[n - 1].replace('image.view', 'image.veiw');
      fs.writeFileSync(file, lines.join('\n'));
      const bad = await verifyExportFile(file);
      expect(bad.ok).toBe(false);
      expect(bad.failure).toMatchObject({ line: n, reason: expect.stringMatching(/changed/) });
      expect(bad.entries).toBe(2);
    }
  });

  it('a removed line breaks the link between its neighbours; a user’s export over a period verifies', async () => {
    const now = new Date();
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const period = await q({
      from: day(new Date(now.getTime() - 86_400_000)),
      to: day(now),
      user: examiner.email,
      format: 'jsonl',
    });
    if (!period.ok) throw new Error(period.detail);
    const file = await write(period.filter, 'user.jsonl');
    expect(await verifyExportFile(file)).toMatchObject({ ok: true, entries: 6 });

    // Everyone's entries over the same two days: since midnight alone could hold none yet (this
    // file's entries were written just before it).
    const all = await q({ from: day(new Date(now.getTime() - 86_400_000)), to: day(now), format: 'jsonl' });
    if (!all.ok) throw new Error(all.detail);
    const whole = await write(all.filter, 'period.jsonl');
    const r = await verifyExportFile(whole);
    expect(r.ok).toBe(true);
    const lines = fs.readFileSync(whole, 'utf8').trimEnd().split('\n');
    // Take out the second-to-last line and change its successor's position to close the gap: the link does not hold.
    const removed = JSON.parse(lines[lines.length - 2]);
    const next = JSON.parse(lines[lines.length - 1]);
    const forged = lines
      .slice(0, -2)
      .concat(lines[lines.length - 1].replace(`"seq":${next.seq}`, `"seq":${removed.seq}`));
    fs.writeFileSync(whole, `${forged.join('\n')}\n`);
    const bad = await verifyExportFile(whole);
    expect(bad.ok).toBe(false);
    expect(bad.failure?.line).toBe(lines.length - 1);
  });
});
