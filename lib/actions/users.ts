'use server';
import { eq } from 'drizzle-orm';
import { revalidatePath } from 'next/cache';
import { audit } from '@/lib/audit';
import { defineAction } from '@/lib/auth/guards';
import { mailPasswordLink } from '@/lib/auth/password-link-mail';
import { issuePasswordLink } from '@/lib/auth/password-links';
import { revokeUserSessions } from '@/lib/auth/sessions';
import { findUserByEmail, getUser, countOtherActiveAdmins } from '@/lib/auth/users';
import { db } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { unlockSignIn } from '@/lib/auth/throttle';
import { changeRoleSchema, createUserSchema, setActiveSchema, userIdSchema } from './schemas/users';

export const createUserAction = defineAction(
  { name: 'users.create', role: 'admin', schema: createUserSchema, stepUp: true },
  async (input, actor) => {
    if (await findUserByEmail(input.email)) {
      return {
        ok: false as const,
        code: 'CONFLICT' as const,
        error: 'A user with this e-mail already exists.',
        fieldErrors: { email: ['A user with this e-mail already exists.'] },
      };
    }
    const email = input.email.toLowerCase();
    const sso = input.signIn === 'sso';
    // No password is set here: a password user chooses one through the one-time link (shown once).
    const created = await db().transaction(async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({ email, name: input.name, role: input.role, passwordHash: null, sso })
        .returning({ id: users.id });
      await audit(
        {
          action: 'user.create',
          actor,
          targetType: 'user',
          targetId: row.id,
          details: { email, role: input.role, signIn: input.signIn },
        },
        tx,
      );
      const link = sso ? null : await issuePasswordLink({ id: row.id, email }, 'invite', actor, tx);
      return { id: row.id, link };
    });
    // E-mailed where SMTP is configured (the admin never sees it), shown once otherwise.
    const delivery = created.link
      ? await mailPasswordLink({ id: created.id, email }, created.link, 'invite', actor)
      : null;
    revalidatePath('/admin/users');
    return {
      ok: true as const,
      data: {
        id: created.id,
        linkPath: delivery === 'show' ? created.link!.path : null,
        expiresAt: created.link?.expiresAt ?? null,
      },
      message: sso
        ? `${email} can now sign in through company SSO as ${input.role}.`
        : delivery === 'emailed'
          ? `${email} was added as ${input.role}. A link to choose their password was e-mailed to them: it works once, for 24 hours.`
          : `${email} was added as ${input.role}. Send them the link below: it works once, for 24 hours.`,
    };
  },
);

export const changeRoleAction = defineAction(
  { name: 'users.change_role', role: 'admin', schema: changeRoleSchema, stepUp: true },
  async (input, actor) => {
    const target = await getUser(input.userId);
    if (!target) return { ok: false as const, code: 'INVALID' as const, error: 'Unknown user.' };
    if (target.role === input.role) return { ok: true as const, data: null };
    if (target.role === 'admin' && (await countOtherActiveAdmins(target.id)) === 0) {
      return {
        ok: false as const,
        code: 'CONFLICT' as const,
        error: 'Verdict needs at least one active admin: make someone else admin first.',
      };
    }
    await db().transaction(async (tx) => {
      await tx.update(users).set({ role: input.role, updatedAt: new Date() }).where(eq(users.id, target.id));
      await audit(
        {
          action: 'user.change_role',
          actor,
          targetType: 'user',
          targetId: target.id,
          details: { before: target.role, after: input.role },
        },
        tx,
      );
    });
    revalidatePath('/admin/users');
    return { ok: true as const, data: null, message: `${target.email} is now ${input.role}.` };
  },
);

export const setActiveAction = defineAction(
  { name: 'users.set_active', role: 'admin', schema: setActiveSchema, stepUp: true },
  async (input, actor) => {
    const target = await getUser(input.userId);
    if (!target) return { ok: false as const, code: 'INVALID' as const, error: 'Unknown user.' };
    if (!input.active && target.id === actor.id)
      return { ok: false as const, code: 'CONFLICT' as const, error: 'You cannot deactivate yourself.' };
    if (!input.active && target.role === 'admin' && (await countOtherActiveAdmins(target.id)) === 0) {
      return { ok: false as const, code: 'CONFLICT' as const, error: 'Verdict needs at least one active admin.' };
    }
    await db().transaction(async (tx) => {
      await tx.update(users).set({ active: input.active, updatedAt: new Date() }).where(eq(users.id, target.id));
      await audit(
        {
          action: input.active ? 'user.activate' : 'user.deactivate',
          actor,
          targetType: 'user',
          targetId: target.id,
          details: { before: target.active, after: input.active },
        },
        tx,
      );
    });
    // Deactivation ends the user's sessions at once, not at their next expiry.
    if (!input.active) await revokeUserSessions(target.id);
    revalidatePath('/admin/users');
    return {
      ok: true as const,
      data: null,
      message: `${target.email} is ${input.active ? 'active again' : 'deactivated'}.`,
    };
  },
);

/**
 * A password reset: the old password stops working and the user's sessions end; the user chooses
 * a new one through a one-time link, shown once to the admin. Their second factors stay.
 */
export const resetPasswordAction = defineAction(
  { name: 'users.reset_password', role: 'admin', schema: userIdSchema, stepUp: true },
  async (input, actor) => {
    const target = await getUser(input.userId);
    if (!target) return { ok: false as const, code: 'INVALID' as const, error: 'Unknown user.' };
    if (target.sso)
      return { ok: false as const, code: 'CONFLICT' as const, error: `${target.email} signs in through SSO only.` };
    if (target.id === actor.id)
      return {
        ok: false as const,
        code: 'CONFLICT' as const,
        error: 'Change your own password on your account page.',
      };
    const link = await db().transaction(async (tx) => {
      await tx.update(users).set({ passwordHash: null, updatedAt: new Date() }).where(eq(users.id, target.id));
      return issuePasswordLink(target, 'reset', actor, tx);
    });
    await revokeUserSessions(target.id);
    const delivery = await mailPasswordLink(target, link, 'reset', actor);
    revalidatePath('/admin/users');
    return {
      ok: true as const,
      data: { linkPath: delivery === 'show' ? link.path : null, expiresAt: link.expiresAt },
      message:
        delivery === 'emailed'
          ? `${target.email} is signed out and their password no longer works. A link to choose a new one was e-mailed to them: it works once, for 24 hours.`
          : `${target.email} is signed out and their password no longer works. Send them the link below: it works once, for 24 hours.`,
    };
  },
);

/**
 * Lifts every sign-in lock of a user, from every address, and the account-wide slow-down. Locks are
 * per account and address (lib/auth/throttle.ts) and lapse after LOGIN_LOCK_MINUTES; this is for
 * the owner locked out from their own address by their own mistakes, or a shared office address.
 */
export const unlockSignInAction = defineAction(
  { name: 'users.unlock_sign_in', role: 'admin', schema: userIdSchema },
  async (input, actor) => {
    const target = await getUser(input.userId);
    if (!target) return { ok: false as const, code: 'INVALID' as const, error: 'Unknown user.' };
    const addresses = await unlockSignIn(target.email);
    await audit({
      action: 'user.unlock_sign_in',
      actor,
      targetType: 'user',
      targetId: target.id,
      details: { lockedAddresses: addresses },
    });
    revalidatePath('/admin/users');
    return {
      ok: true as const,
      data: { addresses },
      message: `${target.email} can sign in again from every address.`,
    };
  },
);
