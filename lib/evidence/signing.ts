import 'server-only';
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { persistentSecret } from '@/lib/server/runtime';

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
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  return { privateKey, publicKey, keyId: createHash('sha256').update(raw).digest('hex').slice(0, 16) };
}

/** AUDIT_SIGNING_KEY, else the key generated once into the data folder. */
export function auditSigningKey(dataDir: string): SigningKey {
  return signingKeyFrom(process.env.AUDIT_SIGNING_KEY || persistentSecret(dataDir, 'audit-signing-key', 32));
}

export interface CheckpointStatement {
  seq: number;
  hash: string;
  signedAt: Date;
}

export function checkpointMessage(c: CheckpointStatement): Buffer {
  return Buffer.from(`verdict-audit-checkpoint-v1|${c.seq}|${c.hash}|${c.signedAt.toISOString()}`, 'utf8');
}

export function signCheckpoint(key: SigningKey, c: CheckpointStatement): string {
  return sign(null, checkpointMessage(c), key.privateKey).toString('base64');
}

export function checkpointSignatureValid(key: SigningKey, c: CheckpointStatement, signature: string): boolean {
  try {
    return verify(null, checkpointMessage(c), key.publicKey, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}
