// The web capture page's HTML: a small, accessible form an end user (or a browser test) fills in
// to send the pictures of each WEB credential and to give consent. Pure rendering; the route
// (routes/web.ts) decides what to show. Works without JavaScript; every value is escaped.
import type { CaptureItem } from './engine/capture';

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

const LEGEND: Record<string, string> = {
  ID: 'Identity document',
  SELFIE: 'Selfie',
  FACEMAP: 'Face scan',
  DOCUMENT: 'Supporting document',
};
const PART_LABEL: Record<string, string> = {
  FRONT: 'Front of the document',
  BACK: 'Back of the document',
  FACE: 'A photo of your face',
  FACEMAP: 'A photo of your face for the face scan',
  DOCUMENT: 'The document (pictures or one PDF)',
};
// The Limits table of the spec, in the words an end user needs before choosing a file.
const PART_HINT: Record<string, string> = {
  FRONT:
    'JPEG or PNG, at least 563 x 355 px, up to 15 MB. The document should fill the picture: at least 512 x 323 px of it.',
  BACK: 'JPEG or PNG, at least 563 x 355 px, up to 15 MB. Needed for ID cards and driving licences.',
  FACE: 'JPEG or PNG, at least 480 x 640 px, up to 15 MB. Your face at least 320 px tall and at least 15 % of the picture.',
  FACEMAP: 'JPEG or PNG, at least 480 x 640 px, up to 15 MB.',
  DOCUMENT: 'JPEG, PNG or one PDF, up to 15 MB.',
};

/** The form field of one part: `<credential id>:<classifier>`. */
export const fieldName = (credentialId: string, classifier: string) => `${credentialId}:${classifier}`;
const fieldId = (credentialId: string, classifier: string) => `f-${credentialId}-${classifier}`;

export interface WebPageView {
  executionId: string;
  token: string;
  status: string;
  items: CaptureItem[];
  consentGiven: boolean;
  /** Field name -> message, and problems of the whole form (field ''). */
  errors?: Record<string, string>;
  notice?: string;
}

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;color:#1f2933;background:#f4f6f8;margin:0}
main{max-width:40rem;margin:2rem auto;padding:1.5rem 2rem;background:#fff;border:1px solid #d9e0e6;border-radius:8px}
h1{font-size:1.5rem;margin:0 0 .25rem}.lede{color:#52606d;margin:0 0 1.5rem}
fieldset{border:1px solid #d9e0e6;border-radius:6px;margin:0 0 1rem;padding:.75rem 1rem}
legend{font-weight:600;padding:0 .25rem}.field{margin:.5rem 0 1rem}label{display:block;font-weight:500}
.hint{color:#52606d;font-size:.875rem;margin:.125rem 0 .375rem}.received{color:#1e7b4a;font-size:.875rem;margin:.25rem 0}
.error,.errors{color:#b42318}.errors{border:2px solid #b42318;border-radius:6px;padding:.5rem 1rem;margin:0 0 1rem}
.finding{color:#8a5300;font-size:.875rem}.status{border:2px solid #1e7b4a;border-radius:6px;padding:.5rem 1rem;margin:0 0 1rem}
.consent label{display:inline;font-weight:400}input[type=file]{max-width:100%}
button{font:inherit;background:#1f4f99;color:#fff;border:0;border-radius:6px;padding:.5rem 1.25rem;cursor:pointer}
button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #f5a623;outline-offset:2px}
code{font-size:.8rem}`;

function shell(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

function partField(item: CaptureItem, p: CaptureItem['parts'][number], errors: Record<string, string>): string {
  const name = fieldName(item.credential.id, p.classifier);
  const id = fieldId(item.credential.id, p.classifier);
  const error = errors[name];
  const described = [`${id}-hint`, ...(p.received ? [`${id}-received`] : []), ...(error ? [`${id}-error`] : [])];
  const accept = p.classifier === 'DOCUMENT' ? 'image/jpeg,image/png,application/pdf' : 'image/jpeg,image/png';
  return `<div class="field">
<label for="${id}">${esc(PART_LABEL[p.classifier] ?? p.classifier)} ${p.required ? '<span>(required)</span>' : '<span>(optional)</span>'}</label>
<p class="hint" id="${id}-hint">${esc(PART_HINT[p.classifier] ?? 'JPEG or PNG, up to 15 MB.')}</p>
${p.received ? `<p class="received" id="${id}-received">Received. Choose a file only to replace it.</p>` : ''}
${p.finding ? `<p class="finding">This picture may not be usable: ${esc(p.finding)}.</p>` : ''}
<input type="file" id="${id}" name="${esc(name)}" accept="${accept}"${p.required && !p.received ? ' required' : ''} aria-describedby="${described.join(' ')}"${error ? ' aria-invalid="true"' : ''}>
${error ? `<p class="error" id="${id}-error">${esc(error)}</p>` : ''}
</div>`;
}

/** The capture page: the form while the execution waits for captures, a closing note afterwards. */
export function renderWebPage(v: WebPageView): string {
  const errors = v.errors ?? {};
  const head = `<h1>Verify your identity</h1><p class="lede">Identity verification simulator: web capture for workflow execution <code>${esc(v.executionId)}</code>.</p>`;
  if (v.status !== 'INITIATED') {
    const expired = v.status === 'TOKEN_EXPIRED' || v.status === 'SESSION_EXPIRED';
    const note = expired
      ? 'This verification has expired. Ask for a new link to start again.'
      : v.status === 'PROCESSED'
        ? 'Thank you: your verification is complete. You can close this page.'
        : 'Thank you: we have everything we need and your verification is under way. You can close this page.';
    return shell('Verify your identity', `${head}<p class="status" role="status">${esc(note)}</p>`);
  }
  if (!v.items.length)
    return shell(
      'Verify your identity',
      `${head}<p role="status">Nothing is captured through the web here: no credential of this verification allows the web channel.</p>`,
    );
  const errorList = Object.entries(errors);
  const summary = errorList.length
    ? `<div class="errors" role="alert" id="errors"><h2>Please check ${errorList.length === 1 ? 'this' : 'these'}</h2><ul>${errorList
        .map(([name, msg]) => {
          const [cid, cls] = name.split(':');
          const target = name === 'consent' ? 'consent' : cls ? fieldId(cid, cls) : '';
          return `<li>${target ? `<a href="#${esc(target)}">${esc(msg)}</a>` : esc(msg)}</li>`;
        })
        .join('')}</ul></div>`
    : '';
  const notice = v.notice ? `<p class="status" role="status">${esc(v.notice)}</p>` : '';
  const sets = v.items
    .map(
      (item) =>
        `<fieldset><legend>${esc(LEGEND[item.credential.category] ?? item.credential.category)}</legend>${item.parts
          .map((p) => partField(item, p, errors))
          .join('')}</fieldset>`,
    )
    .join('');
  const consent = v.consentGiven
    ? '<p class="received">You gave your consent.</p>'
    : `<fieldset class="consent"><legend>Consent</legend><input type="checkbox" id="consent" name="consent" value="yes" required${errors.consent ? ' aria-invalid="true" aria-describedby="consent-error"' : ''}> <label for="consent">I agree that the pictures I send are processed to verify my identity.</label>${errors.consent ? `<p class="error" id="consent-error">${esc(errors.consent)}</p>` : ''}</fieldset>`;
  return shell(
    errorList.length ? 'Error: verify your identity' : 'Verify your identity',
    `${head}${summary}${notice}<form method="post" action="/web/${esc(v.executionId)}" enctype="multipart/form-data">
<input type="hidden" name="token" value="${esc(v.token)}">${sets}${consent}<button type="submit">Send</button></form>`,
  );
}

/** A page for a link that cannot be used (bad or expired token, unknown execution). */
export function renderWebError(status: number, detail: string): string {
  const title = status === 401 ? 'This link is not valid or has expired' : 'This verification cannot be opened';
  return shell(title, `<h1>${esc(title)}</h1><p role="alert">${esc(detail)}</p>`);
}
