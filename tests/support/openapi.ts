import { validate, compileErrors } from '@readme/openapi-parser';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';

/**
 * Checks an OpenAPI 3.1 document with a maintained validator, then checks live responses against
 * the response schemas the document declares for their path, method, status and media type
 * (JSON Schema 2020-12, as OpenAPI 3.1 uses it, with ajv).
 */
export async function expectValidDocument(doc: object): Promise<void> {
  // The parser resolves references in place: it gets a copy.
  const result = await validate(structuredClone(doc) as never);
  expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
}

type Doc = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

export function responseChecker(doc: object) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...(doc as object), $id: 'doc' });
  const seen = new Set<string>();
  /** Fails unless the document declares this status and media type for the operation and the body matches. */
  function checkBody(path: string, method: string, statusCode: number, type: string, body: unknown): void {
    const responses = (doc as Doc).paths[path]?.[method]?.responses;
    expect(responses, `${method} ${path} is in the document`).toBeDefined();
    const status = String(statusCode);
    expect(Object.keys(responses!), `${method} ${path} declares status ${status}`).toContain(status);
    const ref = `doc#/${pointer('paths', path, method, 'responses', status, 'content', type, 'schema')}`;
    const validateBody = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
    const ok = validateBody(body);
    expect(ok, `${method} ${path} ${status} ${type}: ${ajv.errorsText(validateBody.errors)}`).toBe(true);
    seen.add(`${method} ${path} ${status}`);
  }
  /** For a body that is not JSON (an image, a PDF, a page) or none (a redirect): fails unless the document declares this status and media type. */
  function checkMedia(path: string, method: string, statusCode: number, type: string): void {
    const responses = (doc as Doc).paths[path]?.[method]?.responses as
      Record<string, { content?: Record<string, unknown> }> | undefined;
    expect(responses, `${method} ${path} is in the document`).toBeDefined();
    const status = String(statusCode);
    expect(Object.keys(responses!), `${method} ${path} declares status ${status}`).toContain(status);
    // A body-less answer (a redirect) must be declared without content.
    if (!type) expect(responses![status].content, `${method} ${path} ${status} declares no body`).toBeUndefined();
    else
      expect(Object.keys(responses![status].content ?? {}), `${method} ${path} ${status} declares ${type}`).toContain(
        type,
      );
    seen.add(`${method} ${path} ${status}`);
  }
  return {
    /** `path` as the document writes it (`/executions/{id}`); fails when the document has no schema for it. */
    async check(path: string, method: string, res: Response): Promise<unknown> {
      const type = (res.headers.get('content-type') ?? '').split(';')[0].trim();
      const body = await res.json();
      checkBody(path, method, res.status, type, body);
      return body;
    },
    checkBody,
    checkMedia,
    seen,
  };
}
