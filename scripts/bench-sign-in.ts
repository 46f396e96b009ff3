/**
 * What a second factor adds to sign-in, in server time: N password sign-ins of a user without a
 * factor (the baseline), and N of a user with TOTP followed by the code's check (throttle,
 * verification, the session's factor time, the audit entry), interleaved in one run on one
 * database, so both see the same machine. Prints p50/p95 and throughput of each, the ratio of
 * their p95s and the second step's own p95 against the 50 ms budget.
 *
 * It checks its own results and exits 1 when any is wrong: every sign-in succeeded, each TOTP
 * sign-in's session owed its factor until the code and owed nothing after it, the server recorded
 * one verified factor per TOTP sign-in (audit), and a wrong code sent every tenth round was
 * refused and left its session owing the factor. `--break=wrong-code` sends a wrong code where the
 * right one belongs, to show that the checks catch a factor that was not verified.
 *
 *   npm run bench:sign-in -- --n 60 [--database verdict_bench_sign_in] [--break=wrong-code]
 *
 * The database (dropped and created again) lives on TEST_DATABASE_URL's server, loopback only.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { and, count, eq } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { Client } from 'pg';

function option(name: string): string | undefined {
  const eq = process.argv.find((a) => a.startsWith(`--${name}=`));
  if (eq) return eq.slice(name.length + 3);
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}
const N = Number(option('n') ?? 60);
const DB_NAME = option('database') ?? 'verdict_bench_sign_in';
const BREAK = option('break');
const BUDGET_MS = 50;
const CONTROL_EVERY = 10;
if (!Number.isInteger(N) || N < 10) throw new Error('--n must be an integer of at least 10');
if (!/^[a-z_][a-z0-9_]*$/.test(DB_NAME)) throw new Error('--database must be a lower-case SQL identifier');
if (BREAK !== undefined && BREAK !== 'wrong-code') throw new Error('--break takes wrong-code');

function serverUrl(): URL {
  const u = new URL(process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(u.hostname))
    throw new Error(`refusing a non-local server: ${u.hostname}`);
  return u;
}

const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const ms = (v: number) => `${v.toFixed(1)} ms`;
const perSecond = (xs: number[]) => (xs.length / xs.reduce((a, b) => a + b, 0)) * 1000;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function main() {
  const admin = new Client({ connectionString: serverUrl().toString() });
  await admin.connect();
  await admin.query(`drop database if exists ${DB_NAME}`);
  await admin.query(`create database ${DB_NAME}`);
  await admin.end();
  const url = new URL(serverUrl());
  url.pathname = `/${DB_NAME}`;
  process.env.DATABASE_URL = url.toString();
  process.env.MFA_REQUIRED = 'privileged';
  process.env.WEBHOOK_SECRET_KEY ??= 'bench-sign-in-key-0123456789-0123456789-0123';
  const { runMigrations } = await import('@/lib/db/migrate');
  await runMigrations(url.toString());

  const { db } = await import('@/lib/db/client');
  const schema = await import('@/lib/db/schema');
  const { hashPassword } = await import('@/lib/auth/password');
  const { authorizeCredentials } = await import('@/lib/auth/options');
  const { checkSession } = await import('@/lib/auth/sessions');
  const { proveSecondFactor } = await import('@/lib/auth/second-factor');
  const { verifyCode } = await import('@/lib/auth/factors');
  const { encryptSecret } = await import('@/lib/server/secret-box');

  const password = 'Velvet-Harbor-Quartz-42';
  const hash = await hashPassword(password);
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  const [plain] = await db()
    .insert(schema.users)
    .values({ email: 'plain@bench.test', name: 'Plain', role: 'analyst', passwordHash: hash })
    .returning();
  const [mfa] = await db()
    .insert(schema.users)
    .values({ email: 'mfa@bench.test', name: 'Mfa', role: 'manager', passwordHash: hash })
    .returning();
  const [factor] = await db()
    .insert(schema.userFactors)
    .values({ userId: mfa.id, kind: 'totp', label: 'App', secret: encryptSecret(secret), confirmedAt: new Date() })
    .returning();
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });
  /** A code outside the accepted window (an hour ahead), never equal to one inside it. */
  const wrongCode = () => {
    const near = [-1, 0, 1].map((k) => totp.generate({ timestamp: Date.now() + k * 30_000 }));
    for (let h = 1; ; h++) {
      const c = totp.generate({ timestamp: Date.now() + h * 3600_000 });
      if (!near.includes(c)) return c;
    }
  };
  const headers = { 'x-forwarded-for': '127.0.0.1', 'user-agent': 'bench' };
  // Wrong codes count against the sign-in throttle, as they should; the benchmark's own controls
  // are cleared (the whole table of this database of its own) so that they do not lock the rounds that follow.
  const clearThrottle = () => db().delete(schema.loginThrottle);

  const passwordOnly: number[] = [];
  const withFactor: number[] = [];
  const secondStep: number[] = [];
  const problems: string[] = [];
  let proofs = 0;
  let controls = 0;
  let controlsRefused = 0;
  const loadBefore = load();
  for (let i = -3; i < N; i++) {
    let t = performance.now();
    const a0 = await authorizeCredentials({ email: plain.email, password }, { headers });
    const a = performance.now() - t;
    const plainSession = await checkSession(a0.sessionId);
    if (!plainSession.ok || plainSession.user.pending)
      problems.push(`round ${i}: the password-only sign-in did not open a session`);

    // Each code is accepted once per time step: the step's record is cleared outside the timing.
    await db().update(schema.userFactors).set({ lastStep: null }).where(eq(schema.userFactors.id, factor.id));
    t = performance.now();
    const signedIn = await authorizeCredentials({ email: mfa.email, password }, { headers });
    const b1 = performance.now() - t;
    const t2 = performance.now();
    const session = await checkSession(signedIn.sessionId);
    if (!session.ok || session.user.pending !== 'verify') {
      problems.push(`round ${i}: the TOTP user's session did not owe its factor`);
      continue;
    }
    const sent = BREAK === 'wrong-code' ? wrongCode() : totp.generate();
    const proof = await proveSecondFactor(session.user, 'sign_in', () => verifyCode(session.user, sent), '127.0.0.1');
    const b2 = performance.now() - t2;
    const after = await checkSession(signedIn.sessionId);
    if (proof.ok && after.ok && !after.user.pending) proofs++;
    else
      problems.push(`round ${i}: the sign-in with the code failed (${proof.ok ? 'session still owes' : proof.error})`);

    if (i >= 0 && i % CONTROL_EVERY === 0) {
      // The control: a wrong code must be refused and leave the session owing its factor.
      controls++;
      const s = await authorizeCredentials({ email: mfa.email, password }, { headers });
      const owing = await checkSession(s.sessionId);
      if (owing.ok) {
        const refused = await proveSecondFactor(
          owing.user,
          'sign_in',
          () => verifyCode(owing.user, wrongCode()),
          '127.0.0.1',
        );
        const still = await checkSession(s.sessionId);
        if (!refused.ok && (!still.ok || still.user.pending === 'verify')) controlsRefused++;
        else problems.push(`round ${i}: a wrong code was accepted`);
      }
      await clearThrottle();
    }
    if (BREAK) await clearThrottle();
    if (i < 0) continue; // warm-up
    passwordOnly.push(a);
    withFactor.push(b1 + b2);
    secondStep.push(b2);
  }
  // What the server itself recorded: one verified factor per TOTP sign-in that was let in.
  const [{ n: verified }] = await db()
    .select({ n: count() })
    .from(schema.auditLog)
    .where(
      and(
        eq(schema.auditLog.action, 'auth.second_factor'),
        eq(schema.auditLog.actorId, mfa.id),
        eq(schema.auditLog.outcome, 'success'),
      ),
    );

  const rounds = N + 3;
  console.log(
    `sign-in, ${N} each (after 3 warm-up rounds), interleaved, one database; load average ${loadBefore} before, ${load()} after (${os.cpus().length} cores)` +
      (BREAK ? `; BROKEN ON PURPOSE: --break=${BREAK}` : ''),
  );
  console.log(
    `  password only (baseline)  p50 ${ms(pct(passwordOnly, 50))}  p95 ${ms(pct(passwordOnly, 95))}  ${perSecond(passwordOnly).toFixed(1)} sign-ins/s`,
  );
  console.log(
    `  password + TOTP           p50 ${ms(pct(withFactor, 50))}  p95 ${ms(pct(withFactor, 95))}  ${perSecond(withFactor).toFixed(1)} sign-ins/s`,
  );
  console.log(
    `  ratio of p95s             ${(pct(withFactor, 95) / pct(passwordOnly, 95)).toFixed(2)}x (difference ${ms(pct(withFactor, 95) - pct(passwordOnly, 95))}, bcrypt's spread included)`,
  );
  console.log(
    `  added by the second step  p50 ${ms(pct(secondStep, 50))}  p95 ${ms(pct(secondStep, 95))}  (target: at most ${BUDGET_MS} ms p95)`,
  );
  console.log(
    `  checks: ${proofs}/${rounds} TOTP sign-ins let in, ${verified} verified factors in the audit log, ${controlsRefused}/${controls} wrong codes refused`,
  );

  if (verified !== proofs) problems.push(`the audit log holds ${verified} verified factors for ${proofs} sign-ins`);
  if (proofs !== rounds) problems.push(`${rounds - proofs} of ${rounds} TOTP sign-ins failed`);
  if (controls === 0 || controlsRefused !== controls) problems.push('a wrong code was not refused');
  const withinBudget = pct(secondStep, 95) <= BUDGET_MS;
  if (!withinBudget) problems.push(`the second step's p95 ${ms(pct(secondStep, 95))} exceeds ${BUDGET_MS} ms`);
  await db().$client.end();
  if (problems.length) {
    console.log(`FAIL (${problems.length} problems):`);
    for (const p of [...new Set(problems)].slice(0, 10)) console.log(`  - ${p}`);
    process.exit(1);
  }
  console.log(`OK: every sign-in succeeded, every factor was verified, and it adds at most ${BUDGET_MS} ms p95`);
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
