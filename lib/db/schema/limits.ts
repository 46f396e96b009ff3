import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The service's per-customer rate limits, shared by every console and worker (lib/idv/shared-rate-limit.ts):
 * one row per limit holds its theoretical arrival time (GCRA), moved forward by one upsert per
 * request, so N processes together keep to the service's rate.
 */
export const serviceRateLimits = pgTable('service_rate_limits', {
  key: text('key').primaryKey(),
  /** The earliest time the next request may go at the sustained rate (burst allowances reach back from it). */
  tat: timestamp('tat', { withTimezone: true }).notNull(),
});
