// The rules of credential parts (C1-C7): which part a credential may hold, what an upload
// must be, and how the stored parts change. Operations (routes/credentials.ts) parse the request,
// call these and respond; every refusal here is a 400 or 404 with the service's wording.
import { randomUUID } from 'node:crypto';
import { captureClassifiersOf, classifiersOf, requiredPartOf } from '../catalog';
import { bad, notFound } from '../errors';
import { readRegions } from '../image-regions';
import { parseOr400, preparedDataSchema } from '../schemas';
import type { ApiCredential, ApiExecution, Engine } from '../state';
import { checkImageForPart, contentFinding, inspectImage, isPdf, UploadRuleError } from '../uploads';

/** Pages one DOCUMENT credential may hold (C4): memory stays bounded whatever a client sends. */
export const MAX_DOCUMENT_PAGES = 50;

/** The audit event an upload of each part kind records on the execution. */
const UPLOAD_EVENT: Record<string, string> = {
  FRONT: 'id-front-uploaded',
  BACK: 'id-back-uploaded',
  FACE: 'selfie-uploaded',
  FACEMAP: 'facemap-uploaded',
  PREPARED_DATA: 'prepared-data-uploaded',
  DOCUMENT: 'document-uploaded',
};

/** How a part arrived: the channel, and the capture mode the result's captureDetails name. */
export interface PartSource {
  channel: 'API' | 'WEB' | 'SDK';
  /** service-facts / spec: captureDetails modes seen are auto_capture, upload, manual_capture. */
  mode: string;
}

function checkImageClassifier(cred: ApiCredential, cls: string, channel: PartSource['channel']) {
  const images = ['FRONT', 'BACK', 'FACE', ...(channel === 'API' ? [] : ['FACEMAP'])];
  const allowed = (channel === 'API' ? classifiersOf : captureClassifiersOf)(cred.category).filter((x) =>
    images.includes(x),
  );
  if (!images.includes(cls)) throw bad(`classifier must be one of ${images.join(', ')} (got "${cls.slice(0, 40)}")`);
  if (!allowed.includes(cls))
    throw bad(
      `classifier ${cls} is not a part of a ${cred.category} credential${allowed.length ? ` (allowed: ${allowed.join(', ')})` : ''}`,
    );
}

/**
 * C1 (replace) and C2 (add) of a FRONT, BACK or FACE image, and the images the web page and the
 * SDK capture (with C2's rules). The upload rules refuse with a 400; the content rules (the
 * document's and the face's size inside the picture) are measured and kept for processing,
 * which reports them as usability results. Returns the part's id.
 */
export async function putImagePart(
  engine: Engine,
  e: ApiExecution,
  cred: ApiCredential,
  cls: string,
  op: 'C1' | 'C2',
  files: Buffer[],
  source: PartSource = { channel: 'API', mode: 'upload' },
): Promise<string> {
  checkImageClassifier(cred, cls, source.channel);
  if (op === 'C1' && !cred.parts.has(cls)) throw notFound(`There is no ${cls} part to update; add it with POST first`);
  if (files.length !== 1) throw bad('Send exactly one file in the multipart field "file"');
  let info;
  try {
    info = inspectImage(files[0]);
    checkImageForPart(info, cred.category, op);
  } catch (err) {
    if (err instanceof UploadRuleError) throw bad(err.detail);
    throw err;
  }
  const regions = await readRegions(files[0], info.width, info.height);
  // Reading the metadata yields to other requests: one of them may have started the execution.
  if (e.status !== 'INITIATED')
    throw bad(`Uploads are accepted only while the workflow execution is INITIATED; it is ${e.status}`);
  const part = engine.newPart(cls, files[0], info.contentType, info);
  part.regions = regions;
  part.finding = contentFinding(cred.category, info, regions) ?? undefined;
  const previous = cred.parts.get(cls);
  if (previous) part.id = previous.id;
  cred.parts.set(cls, part);
  engine.touchUpload(e, UPLOAD_EVENT[cls], `${cls.toLowerCase()}: ${source.mode}`);
  return part.id;
}

/** C3: the prepared data of a DATA credential. Returns the part's id. */
export function putPreparedData(engine: Engine, e: ApiExecution, cred: ApiCredential, body: unknown): string {
  if (cred.category !== 'DATA')
    throw bad(`PREPARED_DATA is a part of a DATA credential; credential ${cred.id} is ${cred.category}`);
  cred.preparedData = parseOr400(preparedDataSchema, body, 'prepared data body');
  cred.preparedDataPartId ??= randomUUID();
  engine.touchUpload(e, UPLOAD_EVENT.PREPARED_DATA);
  return cred.preparedDataPartId;
}

/** C4: images (pages) or one PDF of a DOCUMENT credential. Returns the last part's id. */
export function addDocument(
  engine: Engine,
  e: ApiExecution,
  cred: ApiCredential,
  files: Buffer[],
  mode = 'upload',
): string {
  if (cred.category !== 'DOCUMENT')
    throw bad(
      `DOCUMENT uploads go to a DOCUMENT credential (api.parts.document); credential ${cred.id} is ${cred.category}`,
    );
  if (files.some(isPdf)) {
    if (files.length > 1 || cred.pages.length)
      throw bad('Document upload: a PDF must be the only file of the document (send images or one PDF)');
    const part = engine.newPart('DOCUMENT', files[0], 'application/pdf');
    cred.pages = [part];
    engine.touchUpload(e, UPLOAD_EVENT.DOCUMENT, `document: ${mode}`);
    return part.id;
  }
  if (cred.pages.some((p) => p.contentType === 'application/pdf'))
    throw bad('Document upload: this document is already a PDF; images cannot be added to it');
  if (cred.pages.length + files.length > MAX_DOCUMENT_PAGES)
    throw bad(
      `Document upload: a document has at most ${MAX_DOCUMENT_PAGES} pages (this one has ${cred.pages.length})`,
    );
  const parts = files.map((f) => {
    try {
      const info = inspectImage(f);
      checkImageForPart(info, 'DOCUMENT', 'C4');
      return engine.newPart('DOCUMENT', f, info.contentType, info);
    } catch (err) {
      if (err instanceof UploadRuleError)
        throw bad(
          err.detail.replace(
            /^Image file format: only JPEG and PNG images are accepted/,
            'Document file format: only JPEG, PNG or one PDF are accepted',
          ),
        );
      throw err;
    }
  });
  cred.pages.push(...parts);
  engine.touchUpload(e, UPLOAD_EVENT.DOCUMENT, `document: ${mode}`);
  return parts.at(-1)!.id;
}

/** A finished result lists the parts it was built from: a deleted part leaves it too. */
function forgetPartInResult(e: ApiExecution) {
  if (!e.built) return;
  for (const rc of e.built.result.credentials ?? []) {
    const cred = e.credentials.find((x) => x.id === rc.id);
    if (!cred) continue;
    rc.parts = [
      ...[...cred.parts.values()].map((p) => ({ classifier: p.classifier, captureType: 'UPLOAD' })),
      ...cred.pages.map(() => ({ classifier: 'DOCUMENT', captureType: 'UPLOAD' })),
      ...(cred.preparedData ? [{ classifier: 'PREPARED_DATA', captureType: 'API' }] : []),
    ];
  }
}

/** The part a credential still lacks before its execution may start (catalog's requiredPartOf), or null. */
export function missingPart(cred: ApiCredential): string | null {
  const required = requiredPartOf(cred.category);
  const has =
    required === undefined ||
    (required === 'PREPARED_DATA'
      ? !!cred.preparedData
      : required === 'DOCUMENT'
        ? cred.pages.length > 0
        : cred.parts.has(required));
  return has ? null : required;
}

/** `ID (FRONT)`, ... for each credential among `creds` that lacks its required part. */
function missingOf(creds: ApiCredential[]): string[] {
  return creds.flatMap((cr) => {
    const part = missingPart(cr);
    return part ? [`${cr.category} (${part})`] : [];
  });
}

/**
 * C5: finalize, once every credential uploaded through the API has its required part (a
 * credential limited to WEB and SDK cannot come through the API, so C5 does not wait for it).
 */
export function finalizeExecution(engine: Engine, e: ApiExecution) {
  if (e.status !== 'INITIATED')
    throw bad(
      `The workflow execution cannot be finalized: it is ${e.status}${e.status === 'ACQUIRED' || e.status === 'PROCESSED' ? ' (already finalized)' : ''}`,
    );
  const missing = missingOf(e.credentials.filter((cr) => cr.allowedChannels.includes('API')));
  if (missing.length) throw bad(`Cannot finalize: required credentials are missing: ${missing.join(', ')}`);
  engine.finalize(e);
}

/**
 * Spec, What the service does 4: "With the web client or the mobile SDK, finalization happens
 * automatically once the required credentials have been received". Called after every web or SDK
 * capture: starts the execution when every credential, whatever its channel, has its required part
 * and the end user's consent is on record. Returns whether it started.
 */
export function finalizeWhenComplete(engine: Engine, e: ApiExecution): boolean {
  if (e.status !== 'INITIATED' || missingOf(e.credentials).length || !engine.consentOf(e)) return false;
  engine.finalize(e);
  return true;
}

/** C6: one part. Returns the deleted part's id. */
export function deletePart(e: ApiExecution, cred: ApiCredential, cls: string): string | undefined {
  let partId: string | undefined;
  if (cls === 'PREPARED_DATA') {
    if (!cred.preparedData) throw notFound('There is no PREPARED_DATA part on this credential');
    cred.preparedData = undefined;
    partId = cred.preparedDataPartId;
  } else if (cls === 'DOCUMENT') {
    if (!cred.pages.length) throw notFound('There is no DOCUMENT part on this credential');
    partId = cred.pages[0].id;
    cred.pages = [];
  } else {
    if (!['FRONT', 'BACK', 'FACE'].includes(cls))
      throw bad(`classifier must be one of FRONT, BACK, FACE, PREPARED_DATA, DOCUMENT (got "${cls.slice(0, 40)}")`);
    const p = cred.parts.get(cls);
    if (!p) throw notFound(`There is no ${cls} part on this credential`);
    partId = p.id;
    cred.parts.delete(cls);
  }
  forgetPartInResult(e);
  return partId;
}

/** C7: every part of a credential. */
export function deleteAllParts(e: ApiExecution, cred: ApiCredential) {
  cred.parts.clear();
  cred.pages = [];
  cred.preparedData = undefined;
  forgetPartInResult(e);
}
