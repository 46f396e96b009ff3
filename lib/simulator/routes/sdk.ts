import { bad, forbidden } from '../errors';
import { afterCapture, captureItems, captureMode, capturePart, giveConsent, openCapture } from '../engine/capture';
import { readForm } from '../http/body';
import { MULTIPART_SLACK } from '../http/limits';
import { P, uuidParam, type C, type RouteContext } from '../http/app';
import type { ApiExecution } from '../state';
import { MAX_UPLOAD_BYTES } from '../uploads';

/** A header value the result may show as it came (captureClient): printable, short. */
function clientHeader(c: C, name: string, fallback: string): string {
  const v = c.req.header(name)?.trim();
  if (!v) return fallback;
  if (!/^[\x20-\x7e]{1,60}$/.test(v)) throw bad(`Header ${name} must be printable ASCII, at most 60 characters`);
  return v;
}

/**
 * The mobile SDK's path: the simulator's own wire format (the spec does not show the SDK's), with
 * the account response's sdk.token as bearer. GET tells the app what to capture; POST sends one
 * capture (multipart `file`, optional `consent=yes` and `captureMode`); the execution starts by
 * itself once every required credential is in and consent is on record.
 */
export function registerSdkRoutes(ctx: RouteContext) {
  const { engine, tokens, route, now } = ctx;
  const open = async (c: C) => {
    const w = uuidParam('workflowExecutionId', P(c, 'w'));
    const claims = await tokens.verify(c.req.header('authorization'), 'sdk');
    return openCapture(engine, claims, w);
  };
  const state = (e: ApiExecution) => ({
    workflowExecution: { id: e.id, status: e.status },
    consent: engine.consentOf(e) ?? null,
    credentials: captureItems(e, 'SDK').map(({ credential, parts }) => ({
      id: credential.id,
      category: credential.category,
      parts,
    })),
  });

  route('/sdk/v1/workflow-executions/:w', {
    GET: async (c) => c.json({ timestamp: now(), ...state(await open(c)) }),
  });

  route('/sdk/v1/workflow-executions/:w/credentials/:c/parts/:classifier', {
    POST: async (c) => {
      const e = await open(c);
      const cid = uuidParam('credentialId', P(c, 'c'));
      const cls = P(c, 'classifier').toUpperCase();
      const form = await readForm(
        c,
        MAX_UPLOAD_BYTES + MULTIPART_SLACK,
        'Image file size: file too large (at most 15 MB)',
      );
      const file = form.get('file');
      if (!file || typeof file === 'string') throw bad('The multipart field "file" is required and must be a file');
      const consent = form.get('consent');
      if (consent !== null && consent !== 'yes') throw bad('consent must be "yes" when sent');
      if (consent !== 'yes' && !engine.consentOf(e))
        throw forbidden('End-user consent is required before the first capture: send consent=yes with it');
      const mode = captureMode(form.get('captureMode')?.toString(), 'auto_capture');
      const client = {
        client: 'sdk',
        platform: clientHeader(c, 'x-sdk-platform', 'unknown'),
        version: clientHeader(c, 'x-sdk-version', 'unknown'),
        osName: clientHeader(c, 'x-sdk-os-name', 'unknown'),
      };
      if (consent === 'yes') giveConsent(e);
      const partId = await capturePart(engine, e, cid, cls, Buffer.from(await file.arrayBuffer()), {
        channel: 'SDK',
        mode,
      });
      const started = afterCapture(engine, e, client);
      return c.json({ timestamp: now(), part: { id: partId, classifier: cls }, started, ...state(e) });
    },
  });
}
