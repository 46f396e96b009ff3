import 'server-only';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Signing secrets at rest. A webhook secret must be readable to sign with, so it cannot be
 * hashed like a password; it is encrypted with AES-256-GCM under WEBHOOK_SECRET_KEY, which lives
 * outside the database (the environment, or DATA_DIR/webhook-key written by `npm start`, like
 * the session and callback secrets in lib/server/runtime.ts). A copy of the database alone does
 * not reveal the secrets; GCM's tag refuses a value that was altered or encrypted under another key.
 */
const VERSION = 'v1';

function key(): Buffer {
  const raw = process.env.WEBHOOK_SECRET_KEY;
  if (!raw || raw.length < 32)
    throw new Error('WEBHOOK_SECRET_KEY is not set: start Verdict with `npm start`, which provides one.');
  return createHash('sha256').update(raw).digest();
}

export function encryptSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [
    VERSION,
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    body.toString('base64url'),
  ].join(':');
}

export function decryptSecret(stored: string): string {
  const [version, iv, tag, body] = stored.split(':');
  if (version !== VERSION || !iv || !tag || !body) throw new Error('Unreadable webhook secret');
  const decipher = createDecipheriv('aes-256-gcm', key(), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64 (what receivers' libraries expect). */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
