import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { auditLog, users } from '@/lib/db/schema';
import { hashPassword, verifyPassword } from './password';

export const DEMO_USERS = [
  { email: 'analyst@verdict.local', name: 'Ada Analyst', role: 'analyst' as const },
  { email: 'manager@verdict.local', name: 'Max Manager', role: 'manager' as const },
  { email: 'admin@verdict.local', name: 'Alex Admin', role: 'admin' as const },
];

/**
 * Creates the demo users (when a demo password is given) and the first admin from configuration.
 * Existing users keep their role and state; a demo user's password follows the demo password.
 */
export async function ensureUsers(
  db: Db,
  opts: { demoPassword?: string; adminEmail?: string; adminPassword?: string },
) {
  const wanted: Array<{ email: string; name: string; role: 'analyst' | 'manager' | 'admin'; password: string }> = [];
  if (opts.demoPassword) for (const u of DEMO_USERS) wanted.push({ ...u, password: opts.demoPassword });
  if (opts.adminEmail && opts.adminPassword)
    wanted.push({
      email: opts.adminEmail.toLowerCase(),
      name: 'Administrator',
      role: 'admin',
      password: opts.adminPassword,
    });
  for (const u of wanted) {
    const [existing] = await db
      .select()
      .from(users)
      .where(eq(sql`lower(${users.email})`, u.email))
      .limit(1);
    if (!existing) {
      const [row] = await db
        .insert(users)
        .values({ email: u.email, name: u.name, role: u.role, passwordHash: await hashPassword(u.password) })
        .returning({ id: users.id });
      await db.insert(auditLog).values({
        action: 'user.create',
        targetType: 'user',
        targetId: row.id,
        details: { email: u.email, role: u.role, source: 'configuration' },
      });
    } else if (!(await verifyPassword(u.password, existing.passwordHash))) {
      await db
        .update(users)
        .set({ passwordHash: await hashPassword(u.password), updatedAt: new Date() })
        .where(eq(users.id, existing.id));
    }
  }
  return wanted.map((u) => ({ email: u.email, role: u.role }));
}
