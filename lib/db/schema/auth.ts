import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt, uuidPrimaryKey } from './columns';

export const roleEnum = pgEnum('role', ['analyst', 'manager', 'admin']);
export const ROLES = roleEnum.enumValues;
export type Role = (typeof ROLES)[number];

export const users = pgTable(
  'users',
  {
    id: uuidPrimaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: roleEnum('role').notNull().default('analyst'),
    /** bcrypt hash; null for users who only sign in through SSO. */
    passwordHash: text('password_hash'),
    active: boolean('active').notNull().default(true),
    /** Signs in through company SSO only (created without a password); a password user never does. */
    sso: boolean('sso').notNull().default(false),
    /** The identity provider's `sub`, bound at the first SSO sign-in; later sign-ins must match it. */
    ssoSubject: text('sso_subject'),
    /** Column ids hidden in the executions list, remembered per user. */
    hiddenColumns: text('hidden_columns')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The IANA zone the user reads times in; null is UTC (drizzle/0028_user_time_zone.sql). */
    timeZone: text('time_zone'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_sso_subject_key').on(t.ssoSubject),
  ],
);

/** The person a row belongs to (a session, a factor, a preference): the row goes with them. */
export const ownerUserId = <TName extends string>(name: TName) =>
  uuid(name)
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

/** The person who did something (created, resolved, acted): the record outlives them, the column cleared. */
export const actorUserId = <TName extends string>(name: TName) =>
  uuid(name).references(() => users.id, { onDelete: 'set null' });

/**
 * Server-side record of each signed-in session. The next-auth JWT only carries this id, so
 * sign-out, deactivation, idle timeout and absolute expiry all take effect at once.
 */
export const userSessions = pgTable(
  'user_sessions',
  {
    id: text('id').primaryKey(),
    userId: ownerUserId('user_id'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip'),
    userAgent: text('user_agent'),
    /** Signed in with a password by a user who needs a second factor: nothing opens until `factorAt` is set. */
    factorRequired: boolean('factor_required').notNull().default(false),
    /** When this session last proved a second factor (sign-in or step-up, lib/auth/step-up.ts). */
    factorAt: timestamp('factor_at', { withTimezone: true }),
    /** The WebAuthn challenge this session was last given (lib/auth/passkeys.ts), used once. */
    webauthnChallenge: text('webauthn_challenge'),
  },
  (t) => [index('user_sessions_user_idx').on(t.userId)],
);

/**
 * Second factors (lib/auth/factors.ts, lib/auth/passkeys.ts). A TOTP secret is encrypted at rest
 * (lib/server/secret-box.ts, key outside the database) and counts once `confirmedAt` is set; a
 * passkey keeps its credential id and public key, which are not secret.
 */
export const userFactors = pgTable(
  'user_factors',
  {
    id: uuidPrimaryKey(),
    userId: ownerUserId('user_id'),
    kind: text('kind').$type<'totp' | 'passkey'>().notNull(),
    label: text('label').notNull(),
    secret: text('secret'),
    credentialId: text('credential_id'),
    publicKey: text('public_key'),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The last TOTP time step accepted: a code is never accepted twice. */
    lastStep: bigint('last_step', { mode: 'number' }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('user_factors_user_idx').on(t.userId), uniqueIndex('user_factors_credential_key').on(t.credentialId)],
);

/** Ten one-time recovery codes per user, stored as SHA-256 hashes (they are random, not chosen). */
export const userRecoveryCodes = pgTable(
  'user_recovery_codes',
  {
    id: uuidPrimaryKey(),
    userId: ownerUserId('user_id'),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('user_recovery_codes_user_idx').on(t.userId)],
);

/** One-time links with which a new user, or one whose password was reset, chooses a password (lib/auth/password-links.ts). */
export const passwordLinks = pgTable(
  'password_links',
  {
    id: uuidPrimaryKey(),
    userId: ownerUserId('user_id'),
    tokenHash: text('token_hash').notNull(),
    purpose: text('purpose').$type<'invite' | 'reset'>().notNull(),
    createdBy: actorUserId('created_by'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('password_links_token_key').on(t.tokenHash), index('password_links_user_idx').on(t.userId)],
);

/**
 * Calls refused to callers nobody knows (a bad API key, a session cookie that does not verify),
 * counted per address and minute: one audit entry per address-minute, written once the minute is
 * over (lib/auth/denied-calls.ts), instead of one per call in the append-only log.
 */
export const deniedCallCounts = pgTable(
  'denied_call_counts',
  {
    ip: text('ip').notNull(),
    minute: timestamp('minute', { withTimezone: true }).notNull(),
    kind: text('kind').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ip, t.minute, t.kind] })],
);

/**
 * Failed sign-ins per key (lib/auth/throttle.ts): an account from one address (locks that pair),
 * an address (locks it), an account as a whole (slows it down, never locks it).
 */
export const loginThrottle = pgTable('login_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  firstFailureAt: timestamp('first_failure_at', { withTimezone: true }).notNull().defaultNow(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});
