// The web client's and the mobile SDK's side of a journey (spec, What the service does 4; the
// journey's step 3): which credentials they capture, what each still needs, the end user's
// consent, and the automatic start once everything required is in. The web page (routes/web.ts)
// and the SDK path (routes/sdk.ts) only parse, call these and respond.
import type { TokenClaims } from '../auth';
import { captureClassifiersOf, requiredPartOf } from '../catalog';
import { bad, forbidden, notFound } from '../errors';
import type { ApiCredential, ApiExecution, CaptureClient, Engine } from '../state';
import { addDocument, finalizeWhenComplete, putImagePart } from './parts';

export type CaptureChannel = 'WEB' | 'SDK';

export interface CapturePart {
  classifier: string;
  required: boolean;
  received: boolean;
  /** A content rule the received picture breaks (reported as a usability result once processed). */
  finding?: string;
}
export interface CaptureItem {
  credential: ApiCredential;
  parts: CapturePart[];
}

/** The execution a web or SDK token opens; 403 for another execution's token, 404 when gone. */
export function openCapture(engine: Engine, claims: TokenClaims, w: string): ApiExecution {
  if (claims.wid !== w) throw forbidden('The token does not authorize this workflow execution');
  const e = engine.executions.get(w);
  if (!e) throw notFound(`Workflow execution ${w} not found`);
  engine.advance(e, Date.now());
  if (e.deleted) throw notFound(`Workflow execution ${w} has been deleted`);
  return e;
}

/** What the channel captures of this execution, credential by credential, and what is already in. */
export function captureItems(e: ApiExecution, channel: CaptureChannel): CaptureItem[] {
  return e.credentials
    .filter((c) => c.allowedChannels.includes(channel) && captureClassifiersOf(c.category).length > 0)
    .map((credential) => ({
      credential,
      parts: captureClassifiersOf(credential.category).map((classifier) => {
        const stored = classifier === 'DOCUMENT' ? credential.pages[0] : credential.parts.get(classifier);
        return {
          classifier,
          required: requiredPartOf(credential.category) === classifier,
          received: !!stored,
          ...(stored?.finding ? { finding: stored.finding.detail } : {}),
        };
      }),
    }));
}

/**
 * One captured file for a credential: the same upload rules as the API's C2 (and C4 for a
 * document), kept for processing like any upload. 403 when the credential does not allow the channel.
 */
export async function capturePart(
  engine: Engine,
  e: ApiExecution,
  credentialId: string,
  classifier: string,
  file: Buffer,
  source: { channel: CaptureChannel; mode: string },
): Promise<string> {
  const cred = e.credentials.find((c) => c.id === credentialId);
  if (!cred) throw notFound(`Credential ${credentialId} not found in workflow execution ${e.id}`);
  if (!cred.allowedChannels.includes(source.channel))
    throw forbidden(
      `Credential ${credentialId} does not allow the ${source.channel} channel (allowed: ${cred.allowedChannels.join(', ')})`,
    );
  if (e.status !== 'INITIATED')
    throw bad(`Captures are accepted only while the workflow execution is INITIATED; it is ${e.status}`);
  if (classifier === 'DOCUMENT') {
    if (cred.category !== 'DOCUMENT') throw bad(`classifier DOCUMENT is not a part of a ${cred.category} credential`);
    // A capture replaces the document: the page and the SDK send the whole of it at once.
    const before = cred.pages;
    cred.pages = [];
    try {
      return addDocument(engine, e, cred, [file], source.mode);
    } catch (err) {
      cred.pages = before;
      throw err;
    }
  }
  return putImagePart(engine, e, cred, classifier, 'C2', [file], source);
}

/** The end user agreed on the page or in the app (spec, What the service does 9: consent before capture). */
export function giveConsent(e: ApiExecution, at = new Date()) {
  e.captureConsent ??= { obtained: 'yes', obtainedAt: at.toISOString() };
}

/** The capture client the result names (captureClient), and the automatic start when complete. */
export function afterCapture(engine: Engine, e: ApiExecution, client: CaptureClient): boolean {
  e.capture = client;
  return finalizeWhenComplete(engine, e);
}

/** service-facts: captureDetails modes seen are auto_capture, upload and manual_capture; others are kept. */
export function captureMode(raw: string | undefined, fallback: string): string {
  if (raw === undefined || raw === '') return fallback;
  if (!/^[a-z][a-z0-9_]{0,39}$/.test(raw))
    throw bad(
      `captureMode must be a lower-case word such as auto_capture, manual_capture or upload (got "${raw.slice(0, 40)}")`,
    );
  return raw;
}
