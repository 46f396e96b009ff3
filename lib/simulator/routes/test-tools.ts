import { faultPatchSchema, parseOr400 } from '../schemas';
import { readJson } from '../http/body';
import { redactUrl } from '../http/limits';
import { feedbackSummary, rateSummary } from '../http/rate-limits';
import type { RouteContext } from '../http/app';

/** /__sim: test tools (client credentials as HTTP Basic): faults, reset, callbacks, stats, sweep. */
export function registerTestToolRoutes(ctx: RouteContext) {
  const { d, engine, route, requireBasic, resetAll } = ctx;
  // =====================================================================
  // /__sim: test tools (client credentials as HTTP Basic)
  route('/__sim/faults', {
    GET: (c) => {
      requireBasic(c);
      return c.json(d.faults);
    },
    PUT: async (c) => {
      requireBasic(c);
      const patch = parseOr400(faultPatchSchema, await readJson(c), 'fault knobs');
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
        feedback: feedbackSummary(d.stats.feedbackWrites),
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
