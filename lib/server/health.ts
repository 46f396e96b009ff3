import 'server-only';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { queueSchemaName } from '@/lib/jobs/boss';
import journal from '@/drizzle/meta/_journal.json';
import { isDraining } from '@/lib/db/shutdown';

/**
 * Liveness and readiness of a console process, for load balancers and orchestrators
 * (`GET /api/health`). Public by design, so it says nothing but states, and cheap: readiness is
 * one query.
 */

/** The newest migration this build ships (drizzle records its `when` as `created_at`). */
const NEWEST_MIGRATION = Math.max(...journal.entries.map((e) => e.when));

export interface Readiness {
  status: 'UP' | 'DOWN';
  checks: {
    database: 'UP' | 'DOWN';
    migrations: 'UP' | 'PENDING' | 'UNKNOWN';
    /** The job queue's tables: installed by the first worker; callbacks wait in their inbox meanwhile. */
    queue: 'UP' | 'NOT_INSTALLED' | 'UNKNOWN';
    process: 'UP' | 'DRAINING';
  };
}

export async function readiness(db: DbOrTx): Promise<Readiness> {
  const checks: Readiness['checks'] = {
    database: 'DOWN',
    migrations: 'UNKNOWN',
    queue: 'UNKNOWN',
    process: isDraining() ? 'DRAINING' : 'UP',
  };
  try {
    const schema = queueSchemaName();
    const r = await db.execute<{ migrated: string | null; queue: boolean }>(sql`
      select (select max(created_at)::text from drizzle.__drizzle_migrations) as migrated,
             to_regclass(${`"${schema.replace(/"/g, '')}".job`}) is not null as queue`);
    checks.database = 'UP';
    const migrated = Number(r.rows[0]?.migrated ?? 0);
    checks.migrations = migrated >= NEWEST_MIGRATION ? 'UP' : 'PENDING';
    checks.queue = r.rows[0]?.queue ? 'UP' : 'NOT_INSTALLED';
  } catch {
    // 42P01 (no migrations table yet) or no connection: either way not ready.
  }
  const ready = checks.database === 'UP' && checks.migrations === 'UP' && checks.process === 'UP';
  return { status: ready ? 'UP' : 'DOWN', checks };
}
