import 'server-only';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { headers } from 'next/headers';
import { audit } from '@/lib/audit';
import { db } from '@/lib/db/client';
import { log } from '@/lib/log';
import { userFactors, userSessions } from '@/lib/db/schema';
import { listFactors, replaceRecoveryCodes } from './factors';
import type { SessionUser } from './sessions';

/**
 * Passkeys (WebAuthn) as a second factor, after the password. The relying party is the console's
 * own address (NEXTAUTH_URL, or the request's host); the challenge lives on the session's row and
 * is used up by the answer, so a response cannot be replayed or carried to another session.
 */
async function relyingParty() {
  const configured = process.env.NEXTAUTH_URL;
  if (configured) {
    const url = new URL(configured);
    return { rpID: url.hostname, origin: url.origin };
  }
  const h = await headers();
  const host = h.get('host') ?? 'localhost';
  const proto = h.get('x-forwarded-proto') === 'https' ? 'https' : 'http';
  return { rpID: host.replace(/:\d+$/, ''), origin: `${proto}://${host}` };
}

/** A refused WebAuthn answer: the library's reason (origin, RP id, challenge; no personal data) goes to the log. */
const refused = (step: string) => (err: unknown) => {
  log.warn({ step, reason: err instanceof Error ? err.message : String(err) }, 'passkey answer refused');
  return null;
};

async function setChallenge(sessionId: string, challenge: string | null) {
  await db().update(userSessions).set({ webauthnChallenge: challenge }).where(eq(userSessions.id, sessionId));
}

/** Reads and clears the session's challenge in one statement: each challenge answers once. */
async function takeChallenge(sessionId: string): Promise<string | null> {
  // The old value comes from a locked subquery joined in, not from a CTE read in RETURNING: that
  // one is evaluated after the update and always gave null (on Postgres and PGlite alike).
  const rows = await db().execute<{ challenge: string | null }>(sql`
    update user_sessions u set webauthn_challenge = null
      from (select id, webauthn_challenge as challenge from user_sessions where id = ${sessionId} for update) old
     where u.id = old.id
    returning old.challenge as challenge`);
  return rows.rows[0]?.challenge ?? null;
}

async function passkeysOf(userId: string) {
  return db()
    .select()
    .from(userFactors)
    .where(and(eq(userFactors.userId, userId), eq(userFactors.kind, 'passkey'), isNotNull(userFactors.confirmedAt)));
}

export async function passkeyRegistrationOptions(user: SessionUser) {
  const { rpID } = await relyingParty();
  const existing = await passkeysOf(user.id);
  const options = await generateRegistrationOptions({
    rpName: 'Verdict',
    rpID,
    userName: user.email,
    userDisplayName: user.name,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((f) => ({
      id: f.credentialId!,
      transports: f.transports as AuthenticatorTransport[],
    })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await setChallenge(user.sessionId, options.challenge);
  return options;
}

export async function verifyPasskeyRegistration(
  user: SessionUser,
  response: RegistrationResponseJSON,
  label: string,
): Promise<{ ok: true; recoveryCodes: string[] | null } | { ok: false }> {
  const expectedChallenge = await takeChallenge(user.sessionId);
  const { rpID, origin } = await relyingParty();
  const verification = expectedChallenge
    ? await verifyRegistrationResponse({
        response,
        expectedChallenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        requireUserVerification: false,
      }).catch(refused('registration'))
    : null;
  if (!verification?.verified || !verification.registrationInfo) {
    await audit({ action: 'auth.factor.enrol', actor: user, outcome: 'failure', details: { kind: 'passkey' } });
    return { ok: false };
  }
  const { credential } = verification.registrationInfo;
  const first = (await listFactors(user.id)).length === 0;
  const [row] = await db()
    .insert(userFactors)
    .values({
      userId: user.id,
      kind: 'passkey',
      label: label || 'Passkey',
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? [],
      confirmedAt: new Date(),
      lastUsedAt: new Date(),
    })
    .returning({ id: userFactors.id });
  await audit({
    action: 'auth.factor.enrol',
    actor: user,
    targetType: 'factor',
    targetId: row.id,
    details: { kind: 'passkey' },
  });
  return { ok: true, recoveryCodes: first ? await replaceRecoveryCodes(user) : null };
}

export async function passkeyAuthenticationOptions(user: SessionUser) {
  const { rpID } = await relyingParty();
  const keys = await passkeysOf(user.id);
  if (!keys.length) return null;
  const options = await generateAuthenticationOptions({
    rpID,
    allowCredentials: keys.map((f) => ({
      id: f.credentialId!,
      transports: f.transports as AuthenticatorTransport[],
    })),
    userVerification: 'preferred',
  });
  await setChallenge(user.sessionId, options.challenge);
  return options;
}

/** Checks a passkey's answer to this session's challenge; the signature counter must move on. */
export async function verifyPasskeyAuthentication(
  user: SessionUser,
  response: AuthenticationResponseJSON,
): Promise<'passkey' | null> {
  const expectedChallenge = await takeChallenge(user.sessionId);
  if (!expectedChallenge) return null;
  const [key] = (await passkeysOf(user.id)).filter((f) => f.credentialId === response.id);
  if (!key) return null;
  const { rpID, origin } = await relyingParty();
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    credential: {
      id: key.credentialId!,
      publicKey: new Uint8Array(Buffer.from(key.publicKey!, 'base64url')),
      counter: key.counter,
      transports: key.transports as AuthenticatorTransport[],
    },
    requireUserVerification: false,
  }).catch(refused('authentication'));
  if (!verification?.verified) return null;
  await db()
    .update(userFactors)
    .set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: new Date() })
    .where(eq(userFactors.id, key.id));
  return 'passkey';
}
