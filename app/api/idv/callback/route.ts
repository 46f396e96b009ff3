import { db } from '@/lib/db/client';
import { env } from '@/lib/env';
import { parseIpAllowlist } from '@/lib/ip-allowlist';
import { handleCallback, type CallbackSettings } from '@/lib/sync/callbacks';
import { DEFAULT_SYNC_OPTIONS } from '@/lib/sync/config';

/**
 * The service's callback (webhook). Public as far as sessions go: it checks its own secret
 * (IDV_CALLBACK_SECRET, `?token=` or a bearer header) and the optional source-IP allowlist.
 * Everything else is in lib/sync/callbacks.ts (the one write) and lib/sync/callback-inbox.ts (the work after).
 */
export const dynamic = 'force-dynamic';

let settings: CallbackSettings | undefined;
function callbackSettings(): CallbackSettings {
  if (!settings) {
    const e = env();
    const allowlist = parseIpAllowlist(e.CALLBACK_IP_ALLOWLIST);
    settings = {
      secret: e.IDV_CALLBACK_SECRET,
      allowlist: allowlist.ok ? allowlist.list : null,
      maxBytes: DEFAULT_SYNC_OPTIONS.callbackMaxBytes,
    };
  }
  return settings;
}

export async function POST(request: Request): Promise<Response> {
  return handleCallback(request, {
    db: db(),
    settings: callbackSettings(),
    log: (line) => console.warn(`[callback] ${line}`),
  });
}
