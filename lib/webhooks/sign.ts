import 'server-only';
import { Webhook } from 'standardwebhooks';

/**
 * The three Standard Webhooks headers of one attempt. Each secret signs with the
 * `standardwebhooks` library; during a rotation's overlap the new and the previous secret both
 * sign and the signatures go space-separated in one header, which the spec allows, so a receiver
 * that still holds the old secret keeps verifying until it switches.
 */
export function signedHeaders(
  msgId: string,
  body: string,
  secrets: string[],
  at = new Date(),
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  if (!secrets.length) throw new Error('No signing secret');
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(msgId, at, body)).join(' '),
  };
}
