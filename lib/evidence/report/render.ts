import 'server-only';
import PDFDocument from 'pdfkit';
import type { CaseReportData } from '@/lib/evidence/report/case-data';
import { withheldFreeText, type ReportSection } from './case-sections';
import { writeText, type Style } from './fonts';
// The report's times stay UTC (formatDateTime's default), not the requester's zone: the PDF goes to
// examiners and colleagues anywhere and sits beside the audit log, which speaks UTC.
import { formatDateTime } from '@/lib/format';
import { capabilityGroups, ruleExecutions } from '@/lib/executions/result';
import { riskBandOf } from '@/lib/executions/glossary';

const str = (v: unknown): string => String(v ?? '—');

const DECISION_WORDS: Record<string, string> = {
  PASSED: 'Passed',
  REJECTED: 'Rejected',
  WARNING: 'Warning',
  NOT_EXECUTED: 'Not executed',
};

/**
 * The case report of one execution as a PDF stream: decision and risk, every check in plain words,
 * rules and scores, images (only under the requester's active reveal), feedback history, the
 * case sections given, and the execution's audit trail ending with the chain hash of its last
 * entry. Personal data arrives masked or clear from the data layer; nothing here unmasks.
 */
export function renderCaseReport(data: CaseReportData, opts: { caseSections?: ReportSection[] } = {}) {
  const d = data.detail;
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: `Case report ${d.id}`, Author: 'Verdict', Subject: 'Identity verification case report' },
  });
  const width = doc.page.width - 100;
  // Every string goes through the embedded Unicode faces (fonts.ts), never the standard PDF fonts.
  const write = (text: unknown, style: Style = 'regular', o: PDFKit.Mixins.TextOptions = {}) =>
    writeText(doc, str(text), style, o);
  const heading = (title: string) => {
    if (doc.y > doc.page.height - 140) doc.addPage();
    doc.moveDown(0.8).fontSize(13).fillColor('#111111');
    write(title, 'bold');
    doc
      .moveTo(50, doc.y + 2)
      .lineTo(50 + width, doc.y + 2)
      .strokeColor('#bbbbbb')
      .stroke();
    doc.moveDown(0.4).fontSize(9.5);
  };
  const row = (label: string, value: unknown) => {
    write(`${label}: `, 'bold', { continued: true });
    write(value);
  };
  const para = (text: string, o: PDFKit.Mixins.TextOptions = {}) => write(text, 'regular', o);

  // Title block.
  doc.fontSize(18);
  write('Case report', 'bold');
  doc.fontSize(10).fillColor('#333333');
  row('Execution', d.id);
  row('Account', d.accountId);
  row('Generated', `${formatDateTime(data.generatedAt)} for ${data.requester.email}`);
  row(
    'Personal data',
    data.revealed
      ? `shown in clear under the requester's reveal (reason: ${d.reveal?.reason ?? '—'}), recorded in the audit log`
      : 'masked (the requester has no active reveal)',
  );
  doc.fillColor('#111111');

  heading('Decision and risk');
  const decision = d.decisionType ? (DECISION_WORDS[d.decisionType] ?? d.decisionType) : 'No decision yet';
  row('Decision', `${decision}${d.decisionLabel ? ` (${d.decisionLabel})` : ''}`);
  row(
    'Risk score',
    d.riskScore === null ? 'none' : `${d.riskScore}${riskBandOf(d.riskScore) ? ` (${riskBandOf(d.riskScore)})` : ''}`,
  );
  row('Status', d.status);
  row('Created', formatDateTime(d.createdAt));
  row('Completed', formatDateTime(d.completedAt));
  row('Workflow definition', d.definitionKey ?? '—');
  row('Customer reference', d.customerInternalReference ?? '—');
  row('Name', d.name ?? '—');
  row('Document', [d.documentType, d.issuingCountry, d.documentNumber].filter(Boolean).join(' · ') || '—');

  const gone: string[] = [];
  if (d.wipedOutAt)
    gone.push(
      `The service wiped this execution's personal data and images on ${formatDateTime(d.wipedOutAt)}: the images and personal values are no longer available anywhere.`,
    );
  if (d.personalDataPurgedAt || (!d.hasPersonalData && !d.wipedOutAt))
    gone.push(
      `Verdict removed the personal data from its cache${d.personalDataPurgedAt ? ` on ${formatDateTime(d.personalDataPurgedAt)}` : ''} (retention): names, dates of birth, document numbers, addresses and images are not in this report.`,
    );
  if (d.goneAt)
    gone.push(
      `The service deleted this execution on ${formatDateTime(d.goneAt)}: what follows is Verdict's last cached copy.`,
    );
  if (gone.length) {
    heading('What is gone');
    for (const g of gone) para(g).moveDown(0.2);
    para('The decision, the checks, the rules, the feedback and the audit trail below remain.');
  }

  heading('Checks');
  const groups = capabilityGroups(d.result);
  if (!groups.length) para('The stored result has no checks.');
  for (const g of groups) {
    write(`${g.title}: ${g.worst ? (DECISION_WORDS[g.worst] ?? g.worst) : 'no decision'}`, 'bold');
    if (g.what) {
      doc.fillColor('#555555');
      write(g.what, 'italic');
      doc.fillColor('#111111');
    }
    for (const e of g.entries) {
      const words = e.explanation ?? (e.label ? `Label ${e.label} (no plain-words text known).` : 'No label.');
      para(
        `• ${e.decisionType ? (DECISION_WORDS[e.decisionType] ?? e.decisionType) : 'No decision'}${e.label ? ` — ${e.label}` : ''}: ${words}`,
        { indent: 12 },
      );
    }
    doc.moveDown(0.3);
  }

  heading('Rules and scores');
  const runs = ruleExecutions(d.ruleExecutions);
  if (!runs.length) para('No rules were executed.');
  for (const run of runs) {
    for (const rs of run.rulesets) {
      write(`Ruleset ${rs.name ?? rs.id}: score ${rs.score ?? '—'}`, 'bold');
      for (const r of rs.matched) para(`• Matched: ${r.name ?? r.id} (score ${r.score ?? '—'})`, { indent: 12 });
      if (rs.notMatched.length) para(`${rs.notMatched.length} rules did not match.`, { indent: 12 });
    }
  }

  heading('Images');
  if (!d.images.length)
    para(gone.length ? 'No images: they were removed with the personal data.' : 'This execution has no images.');
  else if (!data.revealed)
    para(
      `${d.images.length} images withheld: personal data is masked. A reviewer who reveals this execution's personal data (with a reason, recorded) gets them in the report.`,
    );
  else {
    for (const img of data.images) {
      const caption = `${img.category ?? 'Credential'} ${img.classifier.toLowerCase()} (${img.credentialId.slice(0, 8)})`;
      if (!img.bytes) {
        para(`${caption}: not included, ${img.missing}.`);
        continue;
      }
      if (doc.y > doc.page.height - 260) doc.addPage();
      para(caption);
      try {
        doc.image(img.bytes, { fit: [Math.min(width, 320), 200] });
      } catch {
        para('(the image could not be read)');
      }
      doc.moveDown(0.5);
    }
    if (d.images.length > data.images.length)
      para(`${d.images.length - data.images.length} more images are in the console.`);
  }

  heading('Feedback history');
  if (d.feedback.sealed)
    para(
      'Sealed until the QA review of this case is decided: the requester may be its reviewer, and the label could tell the first outcome.',
    );
  else if (!data.feedback.length) para('No feedback was given.');
  for (const f of data.feedback) {
    write(`${f.status}${f.reason ? ` (${f.reason})` : ''}: ${f.state.replace(/_/g, ' ')}`, 'bold');
    para(
      `Submitted by ${f.submittedByEmail} on ${formatDateTime(f.submittedAt)}${f.decidedByEmail ? `; decided by ${f.decidedByEmail} on ${formatDateTime(f.decidedAt)}` : ''}${f.deliveredAt ? `; delivered ${formatDateTime(f.deliveredAt)}` : ''}.`,
      { indent: 12 },
    );
    if (f.note) para(`Internal note: ${f.note}`, { indent: 12 });
    if (f.approvalComment) para(`Decision comment: ${f.approvalComment}`, { indent: 12 });
  }
  if (data.feedbackTextWithheld) para(withheldFreeText(data.feedbackTextWithheld, 'feedback note'));

  for (const s of opts.caseSections ?? data.caseSections) {
    heading(s.title);
    for (const [k, v] of s.rows ?? []) row(k, v);
    for (const p of s.paragraphs ?? []) para(p).moveDown(0.2);
  }

  heading('Audit trail');
  para(
    `${data.trail.length} entries about this execution, oldest first (position in the audit chain, time, who, what, outcome).`,
  );
  doc.moveDown(0.2).fontSize(8.5);
  for (const t of data.trail)
    para(
      `${t.seq === null ? '(not yet sealed)' : `#${t.seq}`}  ${formatDateTime(t.at)}  ${t.actorEmail ?? 'system'}  ${t.action}${t.outcome !== 'success' ? ` (${t.outcome})` : ''}`,
    );
  const last = data.trail.findLast((t) => t.hash !== null);
  doc.moveDown(0.4).fontSize(9.5);
  if (last) {
    // Entries committed after the report's seal (rare: transactions still open then) have no hash yet.
    const tail = data.trail.length - 1 - data.trail.lastIndexOf(last);
    row(
      tail ? 'Chain hash of the last sealed entry' : 'Chain hash of the last entry',
      `${last.hash} (position ${last.seq})${tail ? `; ${tail} later not yet sealed` : ''}`,
    );
    para(
      'Every audit entry carries the SHA-256 hash of the one before it; `npm run audit -- verify` checks the chain and its signed checkpoints, and an audit export of this execution verifies offline.',
    );
  }
  doc.end();
  return doc;
}
