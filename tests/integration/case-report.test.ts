import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCaseReportData } from '@/lib/evidence/report/case-data';
import type { Role } from '@/lib/auth/roles';
import { cachePart } from '@/lib/executions/detail';
import { createReveal } from '@/lib/pii/reveals';
import { db } from '@/lib/db/client';
import { addNote } from '@/lib/cases/notes';
import { auditLog, caseQueues, cases, feedbackSubmissions, users } from '@/lib/db/schema';
import { renderCaseReport } from '@/lib/evidence/report/render';
import { imageFor } from '@/lib/simulator/images';
import { ingestMany } from '@/lib/sync/ingest';
import { FIXTURE_IMAGES, FX, PERSON, personExecution, unusualExecutions } from '../support/fixtures/review';

/**
 * The case report rendered for real (pdfkit), read back with poppler's pdftotext and its first page
 * rendered with pdftoppm: the sections are there, personal data is masked without a reveal and
 * clear with one (its images then embedded and recorded), a wiped execution says what is gone.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-case-report-'));
const analyst = { id: randomUUID(), email: `report-analyst-${Date.now()}@example.test`, role: 'analyst' as const };
const revealer = { id: randomUUID(), email: `report-revealer-${Date.now()}@example.test`, role: 'analyst' as const };

/**
 * Names beyond Latin-1 (the standard PDF fonts printed "Şahin" as "?ahin"): Turkish, Polish,
 * Cyrillic, Greek, Arabic (right to left, joined), Chinese, Japanese and Korean.
 */
const WORLD = '0e2e0000-0000-4000-a000-0000000000a1';
const NAMES = {
  firstName: 'Ahmet Şahin Łucja Жанна Ωmega Ελένη',
  lastName: 'Ğülşen Παπαδοπούλου محمد عبد الله 王小明 山田太郎 김민준',
  documentNumber: 'TR7781234',
  dateOfBirth: '1990-03-01',
};
const SAMPLES = [
  ...NAMES.firstName.split(' '),
  'Ğülşen',
  'Παπαδοπούλου',
  'محمد عبد الله',
  '王小明',
  '山田太郎',
  '김민준',
];
// Free text about the person, each with a marker the unrevealed report must not print.
const FREE = {
  comment: 'Comment: Şahin confirmed by phone',
  note: 'Note: Жанна called, passport in hand',
  feedbackNote: 'Internal note: Ελένη matches the watch list',
  decision: 'Decision comment: 王小明 approved',
};

async function render(executionId: string, user: { id: string; email: string; role: Role }, name: string) {
  const data = await getCaseReportData(executionId, user);
  if (!data) throw new Error('no report data');
  const chunks: Buffer[] = [];
  for await (const c of renderCaseReport(data, {
    caseSections: name === 'sections' ? [{ title: 'Case outcome', rows: [['Outcome', 'Escalated']] }] : undefined,
  }))
    chunks.push(c as Buffer);
  const file = path.join(dir, `${name}.pdf`);
  fs.writeFileSync(file, Buffer.concat(chunks));
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  return { data, file, text };
}

beforeAll(async () => {
  await db()
    .insert(users)
    .values([
      { id: analyst.id, email: analyst.email, name: 'Report analyst', role: 'analyst' },
      { id: revealer.id, email: revealer.email, name: 'Report revealer', role: 'analyst' },
    ]);
  await ingestMany(
    db(),
    unusualExecutions().map((x) => ({ ...x, fetchedAt: new Date() })),
  );
  await ingestMany(db(), [{ ...personExecution(WORLD, NAMES), fetchedAt: new Date() }]);
  const [queue] = await db()
    .insert(caseQueues)
    // A definition of its own: an empty one would match every later file's executions.
    .values({ name: `Report queue ${Date.now()}`, slaHours: 24, definition: `criteria=report-${Date.now()}` })
    .returning();
  await db()
    .insert(cases)
    .values({
      executionId: WORLD,
      queueId: queue.id,
      state: 'resolved',
      dueAt: new Date(Date.now() + 86_400_000),
      outcome: 'approve',
      reason: 'VERIFIED',
      comment: FREE.comment,
      resolvedBy: analyst.id,
      resolvedAt: new Date(),
    })
    .onConflictDoNothing();
  await addNote({ ...analyst, role: 'analyst' }, { executionId: WORLD, body: FREE.note });
  await db()
    .insert(feedbackSubmissions)
    .values({
      executionId: WORLD,
      accountId: `0e2e0000-0000-4000-b000-00000000${WORLD.slice(-4)}`,
      status: 'NOT_FRAUD',
      note: FREE.feedbackNote,
      state: 'delivered',
      submittedBy: analyst.id,
      submittedByEmail: analyst.email,
      idempotencyKey: randomUUID(),
      decidedBy: revealer.id,
      decidedByEmail: revealer.email,
      decidedAt: new Date(),
      approvalComment: FREE.decision,
      deliveredAt: new Date(),
    });
  for (const img of FIXTURE_IMAGES) {
    const { bytes, contentType } = imageFor(img.kind, img.variant);
    await cachePart(img.executionId, img.credentialId, img.classifier, contentType, Buffer.from(bytes));
  }
});

afterAll(() => (process.env.KEEP_TEST_FILES ? undefined : fs.rmSync(dir, { recursive: true, force: true })));

describe('case report (PDF)', () => {
  it('has every section, masks personal data without a reveal, and its first page is not blank', async () => {
    const { text, file, data } = await render(FX.every, analyst, 'masked');
    for (const section of [
      'Case report',
      'Decision and risk',
      'Checks',
      'Rules and scores',
      'Images',
      'Feedback history',
      'Audit trail',
      'Chain hash of the last entry',
    ])
      expect(text).toContain(section);
    expect(text).toContain(FX.every);
    expect(text).toContain('masked (the requester has no active reveal)');
    expect(text).toMatch(/images withheld: personal data is masked/);
    expect(text).not.toContain(PERSON.lastName);
    expect(text).not.toContain(PERSON.documentNumber);
    // The report's own entry is the last of the trail, and its hash is printed in full.
    const last = data.trail[data.trail.length - 1];
    expect(last.action).toBe('execution.report');
    expect(text.replace(/\s+/g, '')).toContain(last.hash);
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, analyst.id), eq(auditLog.action, 'execution.report')));
    expect(entry).toMatchObject({ targetId: FX.every, details: { revealed: false, images: 0 } });

    execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', file, path.join(dir, 'page')]);
    const png = PNG.sync.read(
      fs.readFileSync(
        fs
          .readdirSync(dir)
          .map((f) => path.join(dir, f))
          .find((f) => /page-?0*1\.png$/.test(f))!,
      ),
    );
    let inked = 0;
    for (let i = 0; i < png.data.length; i += 4) if (png.data[i] < 200 || png.data[i + 1] < 200) inked++;
    expect(inked / (png.width * png.height)).toBeGreaterThan(0.01);
  });

  it('with an active reveal it is clear, embeds the images and records each as viewed', async () => {
    await createReveal(revealer, FX.every, 'Examiner request 42');
    const { text, data } = await render(FX.every, revealer, 'revealed');
    expect(text).toContain(PERSON.lastName);
    expect(text).toContain('Examiner request 42');
    expect(data.images.filter((i) => i.bytes)).toHaveLength(3);
    const views = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, revealer.id), eq(auditLog.action, 'image.view')));
    expect(views.map((v) => v.details)).toEqual(
      expect.arrayContaining([expect.objectContaining({ via: 'case_report', classifier: 'FACE' })]),
    );
  });

  it('a wiped execution’s report says what is gone; case sections go in their place', async () => {
    const { text } = await render(FX.wiped, analyst, 'wiped');
    expect(text).toContain('What is gone');
    expect(text).toMatch(/wiped this execution.s personal data and images/);
    const withCase = await render(FX.every, analyst, 'sections');
    expect(withCase.text).toMatch(/Case outcome[\s\S]*Outcome: Escalated[\s\S]*Audit trail/);
  });

  it('with a reveal prints names in every script exactly, and every free text', async () => {
    await createReveal(revealer, WORLD, 'Examiner request 43');
    const { text, file } = await render(WORLD, revealer, 'world');
    // pdftotext marks a right-to-left stretch with embedding controls: they are not part of the
    // name. The long name wraps (between two Hangul syllables, as Unicode line breaking allows).
    const read = text.replace(/[\u202a-\u202e\u200e\u200f]/g, '');
    const joined = read.replace(/\n/g, '');
    for (const sample of SAMPLES) expect(joined, sample).toContain(sample);
    for (const t of Object.values(FREE)) expect(read.replace(/\s+/g, ' ')).toContain(t);
    expect(read).not.toMatch(/\?ahin|unprintable/);
    // Embedded faces, not the standard fonts (which cover Windows-1252 only).
    const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' });
    expect(fonts).toMatch(/DejaVuSans/);
    expect(fonts).toMatch(/NotoSansHans/);
    expect(fonts).toMatch(/NotoSansKR/);
    expect(fonts).not.toMatch(/Helvetica/);
  });

  it('without a reveal withholds every free text with a count', async () => {
    const { text } = await render(WORLD, analyst, 'world-masked');
    const flat = text.replace(/\s+/g, ' ');
    for (const t of Object.values(FREE)) expect(flat).not.toContain(t.split(': ')[1]);
    expect(flat).toContain('Comment: withheld: free text may hold personal data');
    expect(flat).toContain('1 note withheld: free text may hold personal data');
    expect(flat).toContain('2 feedback notes withheld: free text may hold personal data');
    for (const sample of ['Şahin', 'Жанна', '王小明']) expect(flat).not.toContain(sample);
  });
});
