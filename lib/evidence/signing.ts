import 'server-only';
import { createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { env } from '@/lib/env';
import { persistentSecret } from '@/lib/server/runtime';
import {
  checkpointMessage,
  keyIdOf,
  manifestMessage,
  signatureValid,
  type CheckpointStatement,
} from './signed-statements';

export type { CheckpointStatement };

/**
 * The key that signs checkpoints of the audit chain. It lives outside the database: in
 * AUDIT_SIGNING_KEY, else generated once into the owner-only data folder (`.data/audit-signing-key`,
 * like the session secret). Ed25519: the public half, or the same secret, verifies.
 */
export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** First 16 hex characters of SHA-256 of the raw public key: names the key in each checkpoint. */
  keyId: string;
}

// DER prefix of a PKCS#8 Ed25519 private key whose 32-byte seed follows (RFC 8410).
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** A PEM private key, or a 32-byte seed in hex, base64 or base64url. */
export function signingKeyFrom(secret: string): SigningKey {
  const s = secret.trim();
  let privateKey: KeyObject;
  if (s.startsWith('-----BEGIN')) privateKey = createPrivateKey(s);
  else {
    const seed = /^[0-9a-f]{64}$/i.test(s) ? Buffer.from(s, 'hex') : Buffer.from(s, 'base64url');
    if (seed.length !== 32)
      throw new Error('AUDIT_SIGNING_KEY must be a PEM Ed25519 private key or 32 bytes in hex or base64');
    privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('AUDIT_SIGNING_KEY must be an Ed25519 key');
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, keyId: keyIdOf(publicKey) };
}

/** AUDIT_SIGNING_KEY, else the key generated once into the data folder. */
export function auditSigningKey(dataDir: string): SigningKey {
  return signingKeyFrom(process.env.AUDIT_SIGNING_KEY || persistentSecret(dataDir, 'audit-signing-key', 32));
}

/** The configured key when there is one (never generates): for checking a file, not for signing. */
export function existingAuditSigningKey(dataDir: string): SigningKey | null {
  if (process.env.AUDIT_SIGNING_KEY) return signingKeyFrom(process.env.AUDIT_SIGNING_KEY);
  const file = path.join(dataDir, 'audit-signing-key');
  return fs.existsSync(file) ? signingKeyFrom(fs.readFileSync(file, 'utf8')) : null;
}

let consoleKey: SigningKey | null = null;

/** The key of this console process (the same one the worker signs checkpoints with), read once. */
export function consoleSigningKey(): SigningKey {
  return (consoleKey ??= auditSigningKey(path.resolve(env().DATA_DIR)));
}

/** The public half as PEM (SPKI), which is all an examiner needs to check checkpoints and exports. */
export function publicKeyPem(key: SigningKey): string {
  return key.publicKey.export({ format: 'pem', type: 'spki' }).toString();
}

export function signCheckpoint(key: SigningKey, c: CheckpointStatement): string {
  return sign(null, checkpointMessage(c), key.privateKey).toString('base64');
}

export function checkpointSignatureValid(key: SigningKey, c: CheckpointStatement, signature: string): boolean {
  return signatureValid(key.publicKey, checkpointMessage(c), signature);
}

/** Signs an export's manifest: the JSON text exactly as the file will hold it. */
export function signManifest(key: SigningKey, manifestText: string): string {
  return sign(null, manifestMessage(manifestText), key.privateKey).toString('base64');
}
