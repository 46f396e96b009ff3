import { callbackDeps } from '@/lib/sync/callback-endpoint';
import { handleCallback } from '@/lib/sync/callbacks';

/**
 * The service's callback (webhook). Public as far as sessions go: it checks its own secret
 * (IDV_CALLBACK_SECRET, `?token=` or a bearer header) and the optional source-IP allowlist.
 * Under `npm start` the console server answers it before Next (lib/sync/callback-endpoint.ts);
 * this route is the same receiver for Next on its own. Everything else is in
 * lib/sync/callbacks.ts (the one write) and lib/sync/callback-inbox.ts (the work after).
 */
export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  return handleCallback(request, callbackDeps());
}
