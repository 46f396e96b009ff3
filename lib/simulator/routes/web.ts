import { ApiError } from '../errors';
import { afterCapture, captureItems, capturePart, giveConsent, openCapture } from '../engine/capture';
import { readForm } from '../http/body';
import { HARD_CAP } from '../http/limits';
import { P, uuidParam, type C, type RouteContext } from '../http/app';
import type { ApiExecution } from '../state';
import { fieldName, renderWebError, renderWebPage } from '../web-page';

// The page keeps its token in its address (as the real web client's link does): no referrer
// may carry it away, nothing may cache the page, and it loads nothing from anywhere.
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};
/** The simulator's web client version, reported in captureClient.version. */
const WEB_CLIENT_VERSION = '4.14.0';

/** captureClient.osName from the browser's User-Agent; the raw product name when none matches. */
function osNameOf(ua: string): string {
  const known: Array<[RegExp, string]> = [
    [/Android/i, 'Android'],
    [/iPhone|iPad|iPod/i, 'iOS'],
    [/Windows/i, 'Windows'],
    [/Macintosh|Mac OS X/i, 'macOS'],
    [/CrOS/i, 'ChromeOS'],
    [/Linux/i, 'Linux'],
  ];
  return known.find(([re]) => re.test(ua))?.[1] ?? (ua.split(/[\s/]/)[0]?.slice(0, 40) || 'unknown');
}

/**
 * The web capture page (the account response's web.href; the simulator's own, since the spec does
 * not show the web client): GET shows what is still needed, POST takes the pictures and the
 * consent; once every required credential is in, the execution starts by itself.
 */
export function registerWebRoutes(ctx: RouteContext) {
  const { engine, tokens, route } = ctx;
  const html = (c: C, status: number, body: string) => c.html(body, status as 200, PAGE_HEADERS) as unknown as Response;

  const open = async (c: C, token: string | undefined) => {
    const w = uuidParam('workflowExecutionId', P(c, 'w'));
    const claims = await tokens.verify(token ? `Bearer ${token}` : undefined, 'web');
    return openCapture(engine, claims, w);
  };
  const page = (e: ApiExecution, token: string, extra: { errors?: Record<string, string>; notice?: string } = {}) =>
    renderWebPage({
      executionId: e.id,
      token,
      status: e.status,
      items: captureItems(e, 'WEB'),
      consentGiven: !!engine.consentOf(e),
      ...extra,
    });
  /** Errors of the transport (bad token, unknown execution) as a page, not JSON: a person reads it. */
  const asPage = async (c: C, run: () => Promise<Response>) => {
    try {
      return await run();
    } catch (err) {
      if (err instanceof ApiError) return html(c, err.status, renderWebError(err.status, err.detail));
      throw err;
    }
  };

  route('/web/:w', {
    GET: (c) =>
      asPage(c, async () => {
        const token = c.req.query('token') ?? '';
        const e = await open(c, token);
        const notice =
          c.req.query('saved') === '1' ? 'Your pictures were received. Send the missing ones when ready.' : undefined;
        return html(c, 200, page(e, token, { notice }));
      }),
    POST: (c) =>
      asPage(c, async () => {
        // Every picture of the page at once: up to four files of 15 MB.
        const form = await readForm(c, HARD_CAP - 1, 'The pictures are too large together: send them one at a time');
        const token = String(form.get('token') ?? '');
        const e = await open(c, token);
        if (e.status !== 'INITIATED') return c.redirect(`/web/${e.id}?token=${encodeURIComponent(token)}`, 303);
        const errors: Record<string, string> = {};
        const files: Array<{ credentialId: string; classifier: string; file: File }> = [];
        for (const item of captureItems(e, 'WEB'))
          for (const p of item.parts) {
            const f = form.get(fieldName(item.credential.id, p.classifier));
            // A file input left empty is sent as a nameless, empty file.
            if (f && typeof f !== 'string' && (f.size > 0 || f.name))
              files.push({ credentialId: item.credential.id, classifier: p.classifier, file: f });
          }
        const consent = form.get('consent') === 'yes';
        if (!consent && !engine.consentOf(e))
          errors.consent = 'Tick the consent box: your pictures are processed only with your consent.';
        if (!files.length && !consent) errors[''] = 'Choose at least one picture to send.';
        if (!errors.consent) {
          if (consent) giveConsent(e);
          // Each picture stands alone: a good one is kept even when another is refused.
          for (const f of files) {
            try {
              await capturePart(engine, e, f.credentialId, f.classifier, Buffer.from(await f.file.arrayBuffer()), {
                channel: 'WEB',
                mode: 'upload',
              });
            } catch (err) {
              if (!(err instanceof ApiError) || err.status >= 500) throw err;
              errors[fieldName(f.credentialId, f.classifier)] = err.detail;
            }
          }
        }
        const ua = c.req.header('user-agent') ?? '';
        const started =
          files.length > 0 || consent
            ? afterCapture(engine, e, {
                client: 'web',
                platform: 'web',
                version: WEB_CLIENT_VERSION,
                osName: osNameOf(ua),
              })
            : false;
        if (Object.keys(errors).length) return html(c, 400, page(e, token, { errors }));
        const successUrl = e.request.web?.successUrl;
        if (started && successUrl && /^https?:\/\//i.test(successUrl)) return c.redirect(successUrl, 303);
        return c.redirect(`/web/${e.id}?token=${encodeURIComponent(token)}${started ? '' : '&saved=1'}`, 303);
      }),
  });
}
