import { addDocument, deleteAllParts, deletePart, putImagePart, putPreparedData } from '../engine/parts';
import { bad, problem } from '../errors';
import type { ApiCredential, ApiExecution } from '../state';
import { readJson, readFiles } from '../http/body';
import { P, type C, type RouteContext } from '../http/app';

/** C1-C4, C6, C7: credential parts (transaction token); parse, then the part rules (engine/parts.ts), then respond. */
export function registerCredentialRoutes(ctx: RouteContext) {
  const { engine, route, base, now, normClassifier, credentialPrelude } = ctx;
  // =====================================================================
  // C1-C7: credentials (transaction token)

  const partsMap = (e: ApiExecution, cred: ApiCredential) => {
    const out: Record<string, Record<string, string>> = {};
    const href = (cls: string) => `${base()}/api/v1/accounts/${e.accountId}/credentials/${cred.id}/parts/${cls}`;
    for (const p of cred.parts.values()) out[p.classifier.toLowerCase()] = { '1': href(p.classifier) };
    if (cred.pages.length)
      out.document = Object.fromEntries(
        cred.pages.map((_, i) => [String(i + 1), `${href('DOCUMENT')}${i ? `?page=${i + 1}` : ''}`]),
      );
    return out;
  };
  const credOpResponse = (
    c: C,
    e: ApiExecution,
    cred: ApiCredential,
    partId?: string,
    parts?: Record<string, unknown>,
  ) =>
    c.json({
      timestamp: now(),
      account: { id: e.accountId },
      workflowExecution: { id: e.id },
      credential: { id: cred.id },
      ...(partId ? { part: { id: partId } } : {}),
      api: { token: e.token, parts: parts ?? partsMap(e, cred) },
    });

  const uploadImage = async (c: C, op: 'C1' | 'C2') => {
    const cls = normClassifier(P(c, 'classifier'));
    const { e, cred } = await credentialPrelude(c, { credential: true, upload: true });
    const files = await readFiles(c, 'image');
    return credOpResponse(c, e, cred, await putImagePart(engine, e, cred, cls, op, files));
  };

  const uploadPreparedData = async (c: C) => {
    const { e, cred } = await credentialPrelude(c, { credential: true, upload: true });
    const ct = c.req.header('content-type') ?? '';
    if (ct && !/json/i.test(ct)) throw bad('Prepared data must be sent as JSON (Content-Type: application/json)');
    return credOpResponse(c, e, cred, putPreparedData(engine, e, cred, await readJson(c)), {});
  };

  const uploadDocument = async (c: C) => {
    const { e, cred } = await credentialPrelude(c, { credential: true, upload: true });
    const files = await readFiles(c, 'document');
    return credOpResponse(c, e, cred, addDocument(engine, e, cred, files));
  };

  route('/api/v1/accounts/:a/workflow-executions/:w/credentials/:c/parts/:classifier', {
    POST: async (c) => {
      const cls = normClassifier(P(c, 'classifier'));
      if (cls === 'PREPARED_DATA') return uploadPreparedData(c);
      if (cls === 'DOCUMENT') return uploadDocument(c);
      return uploadImage(c, 'C2');
    },
    PUT: async (c) => {
      const cls = normClassifier(P(c, 'classifier'));
      if (cls === 'PREPARED_DATA' || cls === 'DOCUMENT')
        return problem(405, `PUT is not allowed on a ${cls} part; allowed: POST, DELETE`, { allow: 'POST, DELETE' });
      return uploadImage(c, 'C1');
    },
    // C6: delete one part
    DELETE: async (c) => {
      const cls = normClassifier(P(c, 'classifier'));
      const { e, cred } = await credentialPrelude(c, { credential: true, upload: false });
      return credOpResponse(c, e, cred, deletePart(e, cred, cls));
    },
  });

  // C7: delete all parts of a credential
  route('/api/v1/accounts/:a/workflow-executions/:w/credentials/:c', {
    DELETE: async (c) => {
      const { e, cred } = await credentialPrelude(c, { credential: true, upload: false });
      deleteAllParts(e, cred);
      return credOpResponse(c, e, cred);
    },
  });
}
