import { answeringOutages, problem } from '@/lib/http/problem';
import { audit } from '@/lib/audit';
import { routeUser } from '@/lib/auth/guards';
import { cachePart, getCachedPart, getPartTarget } from '@/lib/executions/detail';
import { getActiveReveal } from '@/lib/pii/reveals';
import { UUID_RE } from '@/lib/executions/list-params';
import { isNotFound } from '@/lib/idv';
import { getIdvClient } from '@/lib/server/idv-client';
import { PART_CLASSIFIERS } from '@/lib/idv/schemas';
import { logError } from '@/lib/log';

/** Only raster images are served: an SVG or HTML body could carry script. */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png']);

/**
 * One image of a credential (R1), for a signed-in analyst who has revealed this execution's
 * personal data: from the cache, or fetched from the service and cached. Never cached by the
 * browser; every view, and every refusal, is in the audit log.
 */
export const GET = answeringOutages(
  async (_req: Request, ctx: { params: Promise<{ id: string; credentialId: string; classifier: string }> }) => {
    const auth = await routeUser('analyst');
    if (auth.error) return auth.error;
    const { user } = auth;
    const { id, credentialId, classifier } = await ctx.params;
    if (
      !UUID_RE.test(id) ||
      !UUID_RE.test(credentialId) ||
      !(PART_CLASSIFIERS as readonly string[]).includes(classifier)
    ) {
      return problem(404, 'Not Found', 'No such image.');
    }
    const executionId = id.toLowerCase();
    const credId = credentialId.toLowerCase();
    const target = await getPartTarget(executionId, credId);
    if (!target || !(target.parts ?? []).some((p) => p.classifier === classifier))
      return problem(404, 'Not Found', 'No such image.');
    const auditBase = {
      actor: user,
      targetType: 'execution',
      targetId: executionId,
      details: { credentialId: credId, classifier },
    } as const;

    // Masked by default: without an active reveal the image itself is never sent.
    if (!(await getActiveReveal(user.id, executionId))) {
      await audit({
        ...auditBase,
        action: 'image.view',
        outcome: 'denied',
        details: { ...auditBase.details, reason: 'not_revealed' },
      });
      return problem(403, 'Masked', 'Reveal this execution’s personal data (with a reason) to view its images.');
    }
    if (!target.hasPersonalData || target.wipedOutAt)
      return problem(410, 'Gone', 'The images of this execution were deleted with its personal data.');

    let part = await getCachedPart(credId, classifier);
    if (!part) {
      try {
        const fetched = await getIdvClient().getPart(target.accountId, credId, classifier);
        const contentType = fetched.contentType.split(';')[0].trim().toLowerCase();
        if (!IMAGE_TYPES.has(contentType))
          return problem(502, 'Bad Gateway', 'The service sent something that is not a JPEG or PNG image.');
        part = { contentType, bytes: Buffer.from(fetched.bytes) };
        await cachePart(executionId, credId, classifier, contentType, part.bytes);
      } catch (err) {
        if (isNotFound(err)) return problem(404, 'Not Found', 'The service no longer has this image.');
        logError('image proxy', err);
        return problem(502, 'Bad Gateway', 'The verification service did not deliver the image. Try again later.');
      }
    }
    if (!IMAGE_TYPES.has(part.contentType))
      return problem(502, 'Bad Gateway', 'The cached part is not a JPEG or PNG image.');
    await audit({ ...auditBase, action: 'image.view' });
    return new Response(new Uint8Array(part.bytes), {
      headers: {
        'Content-Type': part.contentType,
        'Cache-Control': 'no-store, private',
        'Content-Disposition': 'inline',
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; sandbox",
      },
    });
  },
);
