import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { LinkKind } from './kinds';

/**
 * The attributes executions are joined by, computed in ingest from the service's result. Only a
 * keyed hash of each normalised value is kept (HMAC-SHA256 under LINK_KEY_SECRET, outside the
 * database): equal values still meet in the graph, but nobody holding the tables can test a
 * guessed e-mail, phone number or document number against them.
 */
export interface LinkKey {
  kind: LinkKind;
  keyHash: string;
  evidence: string;
}

const DEV_KEY = 'verdict-development-link-key-not-for-production';
let cached: string | undefined;
/**
 * LINK_KEY_SECRET, else DATA_DIR/link-key (written by `npm start` before any process that
 * ingests starts: the console, the worker and the sync CLI must all hash with the same key).
 */
function secret(): string {
  const k = process.env.LINK_KEY_SECRET;
  if (k && k.length >= 32) return k;
  if (cached) return cached;
  const file = path.resolve(process.env.DATA_DIR || '.data', 'link-key');
  if (fs.existsSync(file)) return (cached = fs.readFileSync(file, 'utf8').trim());
  if (process.env.NODE_ENV === 'production' && process.env.VERDICT_DEMO !== '1')
    throw new Error('LINK_KEY_SECRET is not set: start Verdict with `npm start`, which provides one.');
  return DEV_KEY;
}

export function linkHash(kind: LinkKind, value: string): string {
  return createHmac('sha256', secret()).update(`${kind}\0${value}`).digest('base64url');
}

const text = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : null;
const squash = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9@.]+/g, ' ')
    .trim();

type Entry = { data?: unknown; additionalInformation?: unknown };
type Capabilities = Record<string, unknown>;
const entriesOf = (caps: Capabilities | undefined, name: string): Entry[] => {
  const v = caps?.[name];
  return Array.isArray(v) ? (v.filter((e) => e && typeof e === 'object') as Entry[]) : [];
};
const obj = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
const vendorResponse = (e: Entry) => obj(obj(obj(e.additionalInformation)?.vendor)?.response);

/** The normalised values of one execution, by kind, with the field each came from. Pure. */
export function linkValuesOf(
  result: Record<string, unknown>,
  faceIds: string[],
  selfId: string,
): Array<{ kind: LinkKind; value: string; evidence: string }> {
  const out = new Map<string, { kind: LinkKind; value: string; evidence: string }>();
  const add = (kind: LinkKind, value: string | null, evidence: string) => {
    if (value && value.length >= 3) out.set(`${kind}\0${value}`, { kind, value, evidence });
  };
  const caps = obj(result.capabilities) ?? undefined;

  for (const e of entriesOf(caps, 'extraction')) {
    const d = obj(e.data);
    if (!d) continue;
    const number = text(d.documentNumber) ?? text(d.passportNumber) ?? text(d.personalNumber);
    const country = text(d.issuingCountry);
    // The service's notion of one document is number plus issuing country (names may differ in a ring).
    if (number)
      add(
        'document',
        `${(country ?? '').toUpperCase()}|${number.toUpperCase().replace(/[\s-]/g, '')}`,
        'extraction.documentNumber',
      );
    const a = obj(d.address);
    if (a) {
      const parts = [a.line1, a.postalCode, a.city, a.country].map(text);
      if (parts[0] && (parts[1] || parts[2]))
        add('address', squash(parts.filter(Boolean).join(' ')), 'extraction.address');
    }
    const email = text(d.email);
    if (email) add('email', email.toLowerCase(), 'extraction.email');
    const phone = text(d.phoneNumber);
    if (phone) add('phone', phone.replace(/[^0-9+]/g, ''), 'extraction.phoneNumber');
  }
  for (const e of entriesOf(caps, 'deviceRiskVerification')) {
    const d = obj(e.data);
    if (!d) continue;
    add('device', text(d.deviceIdAlias), 'deviceRiskVerification.deviceIdAlias');
    add('ip', text(d.trueIP), 'deviceRiskVerification.trueIP');
  }
  for (const e of entriesOf(caps, 'emailVerification')) {
    const email = text(obj(e.data)?.email) ?? text(vendorResponse(e)?.email);
    if (email) add('email', email.toLowerCase(), 'emailVerification.email');
  }
  for (const e of entriesOf(caps, 'phoneVerification')) {
    const phone = text(obj(e.data)?.phoneNumber) ?? text(vendorResponse(e)?.phoneNumber);
    if (phone) add('phone', phone.replace(/[^0-9+]/g, ''), 'phoneVerification.phoneNumber');
  }
  const consent = obj(result.userConsent) ?? obj(result.consent);
  add('ip', text(consent?.userIp), 'consent.userIp');
  // A face: each execution is its own face, and the service's repeated-face findings point at the
  // others that carry it, so two executions that found the same third share its key.
  if (faceIds.length || ['liveness', 'similarity', 'imageChecks'].some((c) => entriesOf(caps, c).length)) {
    add('face', selfId.toLowerCase(), 'imageChecks.faceSearchFindings');
    for (const id of faceIds) add('face', id.toLowerCase(), 'imageChecks.faceSearchFindings');
  }
  return [...out.values()];
}

export function linkKeysOf(result: Record<string, unknown>, faceIds: string[], selfId: string): LinkKey[] {
  return linkValuesOf(result, faceIds, selfId).map((v) => ({
    kind: v.kind,
    keyHash: linkHash(v.kind, v.value),
    evidence: v.evidence,
  }));
}
