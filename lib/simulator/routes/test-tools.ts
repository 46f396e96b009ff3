import { z } from 'zod';
import { parseOr400 } from '../schemas';
import { readJson } from '../http/body';
import { redactUrl } from '../http/limits';
import { rateSummary } from '../http/rate-limits';
import type { RouteContext } from '../http/app';

/** /__sim: test tools (client credentials as HTTP Basic): faults, reset, callbacks, stats, sweep. */
export function registerTestToolRoutes(ctx: RouteContext) {
  const { d, engine, route, requireBasic, resetAll } = ctx;
  // =====================================================================
  // /__sim: test tools (client credentials as HTTP Basic)
  const faultSchema = z.strictObject(
    {
      latencyMs: z.number().int().min(0).max(60_000).optional(),
      errorRate: z.number().min(0).max(1).optional(),
      burst429: z.number().int().min(0).max(1_000_000).optional(),
      tokenLifetimeSec: z
        .number()
        .int()
        .min(1)
        .max(86400 * 60)
        .nullable()
        .optional(),
      dropCallbacks: z.number().min(0).max(1).optional(),
      duplicateCallbacks: z.boolean().optional(),
      stallProcessing: z.boolean().optional(),
    },
    { error: 'the body must be a JSON object of fault knobs' },
  );
  route('/__sim/faults', {
    GET: (c) => {
      requireBasic(c);
      return c.json(d.faults);
    },
    PUT: async (c) => {
      requireBasic(c);
      const patch = parseOr400(faultSchema, await readJson(c), 'fault knobs');
      Object.assign(d.faults, patch);
      return c.json(d.faults);
    },
  });
  route('/__sim/reset', {
    POST: (c) => {
      requireBasic(c);
      resetAll();
      return c.json({ reset: true });
    },
  });
  route('/__sim/callbacks', {
    GET: (c) => {
      requireBasic(c);
      // The receiver's secret travels in the callback URL: never shown back.
      return c.json({ attempts: d.callbacks.list().map((a) => ({ ...a, url: redactUrl(a.url) })) });
    },
  });
  route('/__sim/stats', {
    GET: (c) => {
      requireBasic(c);
      return c.json({
        requests: d.stats.requests,
        byStatus: d.stats.byStatus,
        rates: rateSummary(d.stats.rates, d.rateLimits),
        apiExecutions: engine.executions.size,
        apiAccounts: engine.accounts.size,
        callbacksPending: d.callbacks.pendingCount(),
      });
    },
  });
  route('/__sim/sweep', {
    POST: (c) => {
      requireBasic(c);
      engine.sweep();
      return c.json({ swept: true });
    },
  });
}
