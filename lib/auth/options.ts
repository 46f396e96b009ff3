import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { NextAuthOptions } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import { z } from 'zod';
import { audit } from '@/lib/audit';
import { db } from '@/lib/db/client';
import { DATABASE_OUTAGE_TEXT, isDatabaseOutage } from '@/lib/db/outage';
import { users } from '@/lib/db/schema';
import { clientIpFrom } from '@/lib/request';
import { hasFactorSql } from './factors';
import { mfaRequiredFor, ssoClaimsProveMfa } from './mfa-policy';
import { verifyPassword } from './password';
import { createSession, revokeSession } from './sessions';
import { SIGN_IN_REFUSED } from './sign-in-messages';
import { resolveSsoUser } from './sso';
import { attemptSucceeded, reserveAttempt, throttleKeys } from './throttle';
import { userIdentityColumns } from './users';

// Under plain Node (scripts/bench-sign-in.ts) the CommonJS module's default export arrives wrapped once more.
const CredentialsProvider = (Credentials as unknown as { default?: typeof Credentials }).default ?? Credentials;

export const signInSchema = z.object({
  email: z
    .string({ error: 'Enter your e-mail address.' })
    .trim()
    .min(1, 'Enter your e-mail address.')
    .max(254, 'That e-mail address is too long.')
    .pipe(z.email('Enter a valid e-mail address.')),
  password: z
    .string({ error: 'Enter your password.' })
    .min(1, 'Enter your password.')
    .max(128, 'That password is too long.'),
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type HeaderBag = Record<string, string | string[] | undefined> | Headers | undefined;
function headerGetter(h: HeaderBag): Pick<Headers, 'get'> {
  if (!h) return { get: () => null };
  if (typeof (h as Headers).get === 'function') return h as Headers;
  const bag = h as Record<string, string | string[] | undefined>;
  return {
    get: (k: string) => {
      const v = bag[k.toLowerCase()];
      return Array.isArray(v) ? v.join(', ') : (v ?? null);
    },
  };
}

const lockedMessage = (minutes: number) =>
  `Too many failed sign-ins. Try again in ${minutes || 1} minute${minutes === 1 ? '' : 's'}.`;

/**
 * Exported for the throttle's concurrency test; next-auth calls it through the provider. The
 * message of an error thrown here is shown on the sign-in page (next-auth passes it in the URL):
 * a database outage says so, never drizzle's message with the statement and its parameters.
 */
export async function authorizeCredentials(raw: Record<string, string> | undefined, req: { headers?: HeaderBag }) {
  try {
    return await checkCredentials(raw, req);
  } catch (err) {
    if (isDatabaseOutage(err)) throw new Error(`${DATABASE_OUTAGE_TEXT.title}. ${DATABASE_OUTAGE_TEXT.detail}`);
    throw err;
  }
}

async function checkCredentials(raw: Record<string, string> | undefined, req: { headers?: HeaderBag }) {
  const h = headerGetter(req?.headers);
  const ip = clientIpFrom(h);
  const parsed = signInSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    // Not audited: nothing was tried against an account.
    throw new Error(parsed.error.issues[0]?.message ?? SIGN_IN_REFUSED);
  }
  const email = parsed.data.email.toLowerCase();
  const keys = throttleKeys(email, ip);
  // The attempt is counted before the password is checked, so concurrent guesses cannot pass
  // the limit (lib/auth/throttle.ts).
  const attempt = await reserveAttempt(keys);
  if (!attempt.allowed) {
    await audit({ action: 'auth.sign_in', actorEmail: email, outcome: 'denied', ip, details: { reason: 'locked' } });
    throw new Error(lockedMessage(attempt.lockedMinutes));
  }
  // The account's failures from everywhere slow every attempt on it down, before the password is
  // checked (so the answer to a guess comes no sooner than to the owner), and lock nothing.
  await sleep(attempt.delayMs);
  const [user] = await db()
    .select({
      ...userIdentityColumns,
      passwordHash: users.passwordHash,
      hasFactor: hasFactorSql(users.id),
    })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email))
    .limit(1);
  const passwordOk = await verifyPassword(parsed.data.password, user?.passwordHash);
  if (!user || !passwordOk || !user.active) {
    const reason = !user ? 'unknown_user' : !passwordOk ? 'wrong_password' : 'inactive';
    await audit({
      action: 'auth.sign_in',
      actor: user ? { id: user.id, email: user.email } : null,
      actorEmail: email,
      outcome: 'failure',
      ip,
      details: { reason },
    });
    if (attempt.reachedLimit) throw new Error(lockedMessage(attempt.lockedMinutes));
    throw new Error(SIGN_IN_REFUSED);
  }
  await attemptSucceeded(keys);
  // A user who needs a second factor gets a session that opens nothing but the second-factor page
  // (to prove it, or to enrol one first) until it is proved (lib/auth/guards.ts).
  const factorRequired = mfaRequiredFor(user, user.hasFactor);
  const sessionId = await createSession(user.id, { ip, userAgent: h.get('user-agent') }, { required: factorRequired });
  await db().update(users).set({ lastSignInAt: new Date() }).where(eq(users.id, user.id));
  await audit({
    action: 'auth.sign_in',
    actor: { id: user.id, email: user.email },
    ip,
    details: { method: 'password', secondFactor: factorRequired ? (user.hasFactor ? 'pending' : 'enrol') : 'none' },
  });
  return { id: user.id, email: user.email, name: user.name, role: user.role, sessionId };
}

function oidcProvider() {
  const issuer = process.env.OIDC_ISSUER;
  if (!issuer || !process.env.OIDC_CLIENT_ID || !process.env.OIDC_CLIENT_SECRET) return [];
  return [
    {
      id: 'oidc',
      name: process.env.OIDC_NAME ?? 'Company SSO',
      type: 'oauth' as const,
      wellKnown: `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`,
      clientId: process.env.OIDC_CLIENT_ID,
      clientSecret: process.env.OIDC_CLIENT_SECRET,
      authorization: { params: { scope: 'openid email profile' } },
      idToken: true,
      checks: ['pkce' as const, 'state' as const],
      profile(p: { sub: string; email?: string; name?: string }) {
        return { id: p.sub, email: p.email ?? '', name: p.name ?? p.email ?? p.sub };
      },
    },
  ];
}

export const OIDC_ENABLED = () => oidcProvider().length > 0;

export const authOptions: NextAuthOptions = {
  secret: process.env.NEXTAUTH_SECRET,
  session: { strategy: 'jwt', maxAge: Number(process.env.SESSION_MAX_HOURS ?? 12) * 3600 },
  jwt: { maxAge: Number(process.env.SESSION_MAX_HOURS ?? 12) * 3600 },
  pages: { signIn: '/login', error: '/login' },
  providers: [
    CredentialsProvider({
      id: 'credentials',
      name: 'E-mail and password',
      credentials: { email: { label: 'E-mail', type: 'email' }, password: { label: 'Password', type: 'password' } },
      authorize: authorizeCredentials as never,
    }),
    ...oidcProvider(),
  ],
  callbacks: {
    /** SSO users must already exist in Verdict and be active: an admin grants the role. */
    async signIn({ account, profile }) {
      if (account?.provider !== 'oidc') return true;
      const decision = await resolveSsoUser({
        ...(profile ?? {}),
        sub: account.providerAccountId ?? (profile as { sub?: string } | undefined)?.sub,
      });
      if (!decision.ok) {
        const email = typeof profile?.email === 'string' ? profile.email.toLowerCase() : null;
        await audit({
          action: 'auth.sign_in',
          actorEmail: email,
          outcome: 'denied',
          details: { method: 'oidc', reason: decision.reason },
        });
        return '/login?error=AccessDenied';
      }
      return true;
    },
    async jwt({ token, user, account, profile }) {
      if (user && account?.provider === 'oidc') {
        // Bound by the sign-in callback above: the provider's subject names the user.
        const [row] = await db().select().from(users).where(eq(users.ssoSubject, account.providerAccountId)).limit(1);
        if (!row) throw new Error('SSO sign-in without a bound user');
        const { headers } = await import('next/headers');
        const h = await headers().catch(() => undefined);
        const ip = h ? clientIpFrom(h) : null;
        token.sub = row.id;
        // The provider's amr/acr proves MFA where OIDC_MFA_VALUES says which; otherwise Verdict asks for its own.
        const providerMfa = ssoClaimsProveMfa(profile as { amr?: unknown; acr?: unknown } | undefined);
        const [{ has }] = await db()
          .select({ has: hasFactorSql(row.id) })
          .from(users)
          .where(eq(users.id, row.id));
        token.sid = await createSession(
          row.id,
          { ip, userAgent: h?.get('user-agent') ?? null },
          providerMfa ? { required: true, provedAt: new Date() } : { required: mfaRequiredFor(row, has) },
        );
        await audit({
          action: 'auth.sign_in',
          actor: { id: row.id, email: row.email },
          ip,
          details: { method: 'oidc', providerMfa },
        });
      } else if (user) {
        token.sid = (user as { sessionId?: string }).sessionId;
      }
      return token;
    },
    async session({ session }) {
      // The browser learns only who is signed in; role and validity are checked on the server.
      return { ...session, sid: undefined, user: { name: session.user?.name, email: session.user?.email } };
    },
  },
  events: {
    async signOut({ token }) {
      const sid = token?.sid as string | undefined;
      if (sid) await revokeSession(sid);
      if (token?.sub)
        await audit({ action: 'auth.sign_out', actor: { id: token.sub, email: String(token.email ?? '') } });
    },
  },
};
