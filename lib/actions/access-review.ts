'use server';
import { and, eq, inArray, ne } from 'drizzle-orm';
import { revalidatePath } from 'next/cache';
import { audit } from '@/lib/audit';
import { defineAction } from '@/lib/auth/guards';
import { revokeUserSessions } from '@/lib/auth/sessions';
import { idleDays, idleDeactivates, loadAccessReview, REVIEW_ACTION } from '@/lib/auth/access-review';
import { db } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { noInputSchema } from './schemas/account';

/**
 * "Mark reviewed": records in the audit log who reviewed the access list and when, with what it
 * held. Where IDLE_DEACTIVATE_DAYS is set, the users idle that long are deactivated with it.
 */
export const markAccessReviewedAction = defineAction(
  { name: 'access_review.complete', role: 'admin', schema: noInputSchema, stepUp: true },
  async (_input, actor) => {
    const review = await loadAccessReview();
    const idle = review.users.filter((u) => u.idle && u.id !== actor.id);
    let deactivated: string[] = [];
    if (idleDeactivates() && idle.length) {
      const rows = await db()
        .update(users)
        .set({ active: false, updatedAt: new Date() })
        .where(
          and(
            inArray(
              users.id,
              idle.map((u) => u.id),
            ),
            ne(users.role, 'admin'),
            eq(users.active, true),
          ),
        )
        .returning({ id: users.id, email: users.email });
      for (const r of rows) {
        await revokeUserSessions(r.id);
        await audit({
          action: 'user.deactivate',
          actor,
          targetType: 'user',
          targetId: r.id,
          details: { reason: 'idle', days: idleDays() },
        });
      }
      deactivated = rows.map((r) => r.email);
    }
    await audit({
      action: REVIEW_ACTION,
      actor,
      details: {
        users: review.users.length,
        activeUsers: review.users.filter((u) => u.active).length,
        apiKeys: review.keys.length,
        webhooks: review.hooks.length,
        idle: idle.map((u) => u.email),
        deactivated,
      },
    });
    revalidatePath('/admin/access-review');
    return {
      ok: true as const,
      data: { deactivated },
      message: `Review recorded in the audit log${deactivated.length ? `; ${deactivated.length} idle user(s) deactivated` : ''}.`,
    };
  },
);
