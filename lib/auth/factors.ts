import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import { audit } from '@/lib/audit';
import { db } from '@/lib/db/client';
import { userFactors, userRecoveryCodes } from '@/lib/db/schema';
import { decryptSecret, encryptSecret } from '@/lib/server/secret-box';

/**
 * Second factors: TOTP (RFC 6238, 30 s, 6 digits, one step of drift either way) and the ten
 * one-time recovery codes; passkeys are in ./passkeys.ts. TOTP secrets are encrypted at rest
 * with the same key-outside-the-database scheme as webhook secrets; recovery codes are random,
 * so a SHA-256 hash is enough to store them (nobody chose them, nothing to brute-force from a list).
 */
type Actor = { id: string; email: string };

const PERIOD = 30;
const ISSUER = 'Verdict';
export const RECOVERY_CODE_COUNT = 10;

function totpFor(secretBase32: string, email: string) {
  return new OTPAuth.TOTP({
    issuer: ISSUER,
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: OTPAuth.Secret.fromBase32(secretBase32),
  });
}

/** Accepts a code of this step or a neighbour, never one at or before the last step accepted (no replay). */
function acceptedStep(secretBase32: string, email: string, code: string, lastStep: number | null): number | null {
  const delta = totpFor(secretBase32, email).validate({ token: code, window: 1 });
  if (delta === null) return null;
  const step = Math.floor(Date.now() / 1000 / PERIOD) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

export interface FactorSummary {
  id: string;
  kind: 'totp' | 'passkey';
  label: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export async function listFactors(userId: string): Promise<FactorSummary[]> {
  return db()
    .select({
      id: userFactors.id,
      kind: userFactors.kind,
      label: userFactors.label,
      createdAt: userFactors.createdAt,
      lastUsedAt: userFactors.lastUsedAt,
    })
    .from(userFactors)
    .where(and(eq(userFactors.userId, userId), isNotNull(userFactors.confirmedAt)))
    .orderBy(asc(userFactors.createdAt));
}

/** SQL: whether a user holds a confirmed factor (for the session check and lists). */
export const hasFactorSql = (userId: unknown) =>
  sql<boolean>`exists (select 1 from user_factors f where f.user_id = ${userId} and f.confirmed_at is not null)`;

export async function countRecoveryCodesLeft(userId: string): Promise<number> {
  const [row] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(userRecoveryCodes)
    .where(and(eq(userRecoveryCodes.userId, userId), isNull(userRecoveryCodes.usedAt)));
  return row?.n ?? 0;
}

/** Starts a TOTP enrolment: a new secret, not counted until a code from it is confirmed. */
export async function startTotpEnrolment(user: Actor) {
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  // An abandoned enrolment leaves nothing behind but its unconfirmed row, replaced here.
  await db()
    .delete(userFactors)
    .where(and(eq(userFactors.userId, user.id), eq(userFactors.kind, 'totp'), isNull(userFactors.confirmedAt)));
  const [row] = await db()
    .insert(userFactors)
    .values({ userId: user.id, kind: 'totp', label: 'Authenticator app', secret: encryptSecret(secret) })
    .returning({ id: userFactors.id });
  const uri = totpFor(secret, user.email).toString();
  return { factorId: row.id, secret, uri, qr: await QRCode.toDataURL(uri, { margin: 1, width: 200 }) };
}

function newRecoveryCode(): string {
  const raw = randomBytes(8).toString('hex').slice(0, 10);
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
}
const hashRecoveryCode = (code: string) =>
  createHash('sha256')
    .update(
      code
        .trim()
        .toLowerCase()
        .replace(/[^0-9a-f]/g, ''),
    )
    .digest('hex');

/** Ten new recovery codes, replacing any old ones; the plain codes are returned once, to show. */
export async function replaceRecoveryCodes(user: Actor): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db().transaction(async (tx) => {
    await tx.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, user.id));
    await tx.insert(userRecoveryCodes).values(codes.map((c) => ({ userId: user.id, codeHash: hashRecoveryCode(c) })));
    await audit(
      { action: 'auth.recovery_codes.create', actor: user, targetType: 'user', targetId: user.id, details: {} },
      tx,
    );
  });
  return codes;
}

/**
 * Confirms a TOTP enrolment with a code from the app. The first factor a user holds also gets
 * the recovery codes (returned to show once).
 */
export async function confirmTotpEnrolment(
  user: Actor,
  factorId: string,
  code: string,
): Promise<{ ok: true; recoveryCodes: string[] | null } | { ok: false }> {
  const [row] = await db()
    .select()
    .from(userFactors)
    .where(and(eq(userFactors.id, factorId), eq(userFactors.userId, user.id), isNull(userFactors.confirmedAt)))
    .limit(1);
  const step = row?.secret ? acceptedStep(decryptSecret(row.secret), user.email, code, null) : null;
  if (!row || step === null) {
    await audit({ action: 'auth.factor.enrol', actor: user, outcome: 'failure', details: { kind: 'totp' } });
    return { ok: false };
  }
  const first = (await listFactors(user.id)).length === 0;
  await db()
    .update(userFactors)
    .set({ confirmedAt: new Date(), lastStep: step, lastUsedAt: new Date() })
    .where(eq(userFactors.id, row.id));
  await audit({
    action: 'auth.factor.enrol',
    actor: user,
    targetType: 'factor',
    targetId: row.id,
    details: { kind: 'totp' },
  });
  return { ok: true, recoveryCodes: first ? await replaceRecoveryCodes(user) : null };
}

/**
 * Checks a code typed at sign-in or step-up: a TOTP code from any of the user's apps, or an
 * unused recovery code (used up here, atomically: the same code cannot pass twice, even at once).
 */
export async function verifyCode(user: Actor, code: string): Promise<'totp' | 'recovery' | null> {
  const clean = code.replace(/\s/g, '');
  if (/^\d{6}$/.test(clean)) {
    const rows = await db()
      .select()
      .from(userFactors)
      .where(and(eq(userFactors.userId, user.id), eq(userFactors.kind, 'totp'), isNotNull(userFactors.confirmedAt)));
    for (const row of rows) {
      const step = acceptedStep(decryptSecret(row.secret!), user.email, clean, row.lastStep);
      if (step === null) continue;
      // The step moves forward only if nobody used this one meanwhile (a replay at the same moment loses).
      const won = await db()
        .update(userFactors)
        .set({ lastStep: step, lastUsedAt: new Date() })
        .where(
          and(eq(userFactors.id, row.id), sql`(${userFactors.lastStep} is null or ${userFactors.lastStep} < ${step})`),
        )
        .returning({ id: userFactors.id });
      if (won.length) return 'totp';
    }
    return null;
  }
  const used = await db()
    .update(userRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(userRecoveryCodes.userId, user.id),
        eq(userRecoveryCodes.codeHash, hashRecoveryCode(clean)),
        isNull(userRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: userRecoveryCodes.id });
  if (!used.length) return null;
  await audit({
    action: 'auth.recovery_code.use',
    actor: user,
    targetType: 'user',
    targetId: user.id,
    details: { left: await countRecoveryCodesLeft(user.id) },
  });
  return 'recovery';
}

/** Removes a factor while another one remains; false when it is the last (or not the user's). */
export async function removeFactor(user: Actor, factorId: string): Promise<'removed' | 'last' | 'unknown'> {
  return db().transaction(async (tx) => {
    // Locks the user's factors, so two removals at once cannot both leave "another one".
    const rows = await tx
      .select({ id: userFactors.id, kind: userFactors.kind })
      .from(userFactors)
      .where(and(eq(userFactors.userId, user.id), isNotNull(userFactors.confirmedAt)))
      .for('update');
    const target = rows.find((r) => r.id === factorId);
    if (!target) return 'unknown';
    if (rows.length < 2) return 'last';
    await tx.delete(userFactors).where(eq(userFactors.id, factorId));
    await audit(
      {
        action: 'auth.factor.remove',
        actor: user,
        targetType: 'factor',
        targetId: factorId,
        details: { kind: target.kind },
      },
      tx,
    );
    return 'removed';
  });
}
