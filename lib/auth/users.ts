import 'server-only';
import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import { lockedAddressesSql } from '@/lib/auth/throttle';
import { db } from '@/lib/db/client';
import { users, type Role } from '@/lib/db/schema';

export type UserRow = Pick<
  typeof users.$inferSelect,
  'id' | 'email' | 'name' | 'role' | 'active' | 'createdAt' | 'lastSignInAt' | 'sso'
> & {
  /** Addresses this user's sign-in is locked from now (lib/auth/throttle.ts). */
  lockedAddresses: number;
};

/** Who a user is and what they may do: every read that lists or signs in users selects these. */
export const userIdentityColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  role: users.role,
  active: users.active,
};

export async function listUsers(): Promise<UserRow[]> {
  return db()
    .select({
      ...userIdentityColumns,
      sso: users.sso,
      createdAt: users.createdAt,
      lastSignInAt: users.lastSignInAt,
      lockedAddresses: lockedAddressesSql(users.email),
    })
    .from(users)
    .orderBy(asc(users.email));
}

export async function getUser(id: string) {
  const [row] = await db().select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

export async function findUserByEmail(email: string) {
  const [row] = await db()
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
    .limit(1);
  return row ?? null;
}

/** Other active admins than `exceptId`: the last admin may not be demoted or deactivated. */
export async function countOtherActiveAdmins(exceptId: string): Promise<number> {
  const [row] = await db()
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role, 'admin' satisfies Role), eq(users.active, true), ne(users.id, exceptId)));
  return row?.n ?? 0;
}
