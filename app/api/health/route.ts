import { sql } from 'drizzle-orm';
import { db } from '@/lib/db/client';

// Public by design, for load balancers: says only whether the database answers.
export const dynamic = 'force-dynamic';

export async function GET() {
  try {
    await db().execute(sql`select 1`);
    return Response.json({ status: 'UP' });
  } catch {
    return Response.json({ status: 'DOWN' }, { status: 503 });
  }
}
