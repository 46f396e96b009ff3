'use server';
import { eq } from 'drizzle-orm';
import { revalidatePath } from 'next/cache';
import { audit } from '@/lib/audit';
import { defineAction } from '@/lib/auth/guards';
import { hashPassword } from '@/lib/auth/password';
import { revokeUserSessions } from '@/lib/auth/sessions';
import { findUserByEmail, getUser, countOtherActiveAdmins } from '@/lib/data/users';
import { db } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { unlockSignIn } from '@/lib/auth/throttle';
import { changeRoleSchema, createUserSchema, setActiveSchema, userIdSchema } from './schemas/users';

export const createUserAction = defineAction(
  { name: 'users.create', role: 'admin', schema: createUserSchema },
  async (input, actor) => {
    if (await findUserByEmail(input.email)) {
      return {
        ok: false as const,
        code: 'CONFLICT' as const,
        error: 'A user with this e-mail already exists.',
        fieldErrors: { email: ['A user with this e-mail already exists.'] },
      };
    }
    const passwordHash = input.password ? await hashPassword(input.password) : null;
    const created = await db().transaction(async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({
          email: input.email.toLowerCase(),
          name: input.name,
          role: input.role,
          passwordHash,
          sso: !passwordHash,
        })
        .returning({ id: users.id });
      await audit(
        {
          action: 'user.create',
          actor,
          targetType: 'user',
          targetId: row.id,
          details: { email: input.email.toLowerCase(), role: input.role, password: Boolean(passwordHash) },
        },
        tx,
      );
      return row;
    });
    revalidatePath('/admin/users');
    return { ok: true as const, data: { id: created.id }, message: `${input.email} can now sign in as ${input.role}.` };
  },
);

export const changeRoleAction = defineAction(
  { name: 'users.change_role', role: 'admin', schema: changeRoleSchema },
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
  { name: 'users.set_active', role: 'admin', schema: setActiveSchema },
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
