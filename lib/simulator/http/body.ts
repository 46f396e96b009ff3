import { ApiError, bad } from '../errors';
import { MAX_UPLOAD_BYTES } from '../uploads';
import type { C } from './app';
import { HARD_CAP, JSON_LIMIT, MULTIPART_SLACK } from './limits';

// ---------- body helpers ----------
export async function readBody(c: C, limit: number): Promise<{ buf: Buffer; over: boolean }> {
  const body = c.req.raw.body;
  if (!body) return { buf: Buffer.alloc(0), over: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0,
    over = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > HARD_CAP) {
      await reader.cancel().catch(() => undefined);
      over = true;
      break;
    }
    if (total > limit) over = true;
    else chunks.push(value);
  }
  return { buf: over ? Buffer.alloc(0) : Buffer.concat(chunks), over };
}

export async function readJson(c: C): Promise<unknown> {
  const { buf, over } = await readBody(c, JSON_LIMIT);
  if (over) throw new ApiError(413, 'The JSON body is larger than 1 MB');
  const text = buf.toString('utf8').trim();
  if (!text) throw bad('A JSON body is required');
  try {
    return JSON.parse(text);
  } catch {
    throw bad('Malformed JSON body');
  }
}

/** A multipart/form-data body of at most `limit` bytes; `tooLarge` is the 400's detail when it is over. */
export async function readForm(c: C, limit: number, tooLarge: string): Promise<FormData> {
  const ct = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(ct)) {
    await readBody(c, 0);
    throw bad('Expected a multipart/form-data body with the file in a field named "file"');
  }
  const { buf, over } = await readBody(c, limit);
  if (over) throw bad(tooLarge);
  try {
    return await new Response(new Uint8Array(buf), { headers: { 'content-type': ct } }).formData();
  } catch {
    throw bad('Malformed multipart/form-data body');
  }
}

export async function readFiles(c: C, what: 'image' | 'document'): Promise<Buffer[]> {
  const tooLarge =
    what === 'image'
      ? 'Image file size: file too large (at most 15 MB)'
      : 'Document file size: file too large (at most 15 MB)';
  const form = await readForm(c, MAX_UPLOAD_BYTES + MULTIPART_SLACK, tooLarge);
  const entries = form.getAll('file');
  if (!entries.length) throw bad('The multipart field "file" is required');
  const out: Buffer[] = [];
  for (const f of entries) {
    if (typeof f === 'string') throw bad('The multipart field "file" must be a file, not a text value');
    if (f.size > MAX_UPLOAD_BYTES) throw bad(tooLarge);
    out.push(Buffer.from(await f.arrayBuffer()));
  }
  return out;
}
