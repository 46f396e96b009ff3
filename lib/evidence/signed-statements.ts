import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';

/**
 * What the audit signing key signs, and how a signature is checked with its public half: a
 * checkpoint of the chain's head, and an export's manifest. Shared by the signer (signing.ts, on
 * the server) and the offline verifier of an exported file (export-file.ts), which has only the
 * public key. The standalone examiner's script (docs/examiner/verify-audit-export.mjs) builds the
 * same messages; each starts with its own tag so that no signature of one kind passes for the other.
 */

export interface CheckpointStatement {
  seq: number;
  hash: string;
  signedAt: Date;
}

export function checkpointMessage(c: CheckpointStatement): Buffer {
  return Buffer.from(`verdict-audit-checkpoint-v1|${c.seq}|${c.hash}|${c.signedAt.toISOString()}`, 'utf8');
}

/** The version of the export's manifest, and the tag of the message its signature covers. */
export const EXPORT_MANIFEST_VERSION = 'verdict-audit-export-v1';

/** The signed message of a manifest: its tag, then the manifest's JSON text exactly as the file holds it. */
export function manifestMessage(manifestText: string): Buffer {
  return Buffer.from(`${EXPORT_MANIFEST_VERSION}|${manifestText}`, 'utf8');
}

/** First 16 hex characters of SHA-256 of the raw Ed25519 public key: names the key in checkpoints and manifests. */
export function keyIdOf(publicKey: KeyObject): string {
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  return createHash('sha256').update(raw).digest('hex').slice(0, 16);
}

/** An Ed25519 public key from PEM (SPKI, as `npm run audit -- public-key` prints it). */
export function publicKeyFromPem(pem: string): KeyObject {
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('the public key is not an Ed25519 key');
  return key;
}

export function signatureValid(publicKey: KeyObject, message: Buffer, signature: string): boolean {
  try {
    return verify(null, message, publicKey, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}
