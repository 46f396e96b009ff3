// Identity-verification service simulator: a faithful offline HTTP implementation of the service
// interface (../shared/spec/identity-verification-service.md) on one base URL.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { TokenService } from './auth';
import { CallbackDispatcher } from './callbacks';
import { Engine } from './state';
import { createApp, isLoopbackHost } from './server';
import { createRateMeters, feedbackSummary, rateSummary } from './http/rate-limits';
import {
  DEFAULT_FAULTS,
  DEFAULT_RATE_LIMITS,
  type FaultKnobs,
  type RateLimitSettings,
  type RunningSimulator,
  type SimulatorOptions,
} from './types';

export type { RunningSimulator, SimulatorOptions } from './types';
export { DEFAULT_FAULTS } from './types';
export { generateExecution } from './generator';
export { runDemoCaptures } from './demo-captures';

export const DEFAULT_PORT = 4010;
export const DEFAULT_EXECUTIONS = 1500;

export async function startSimulator(opts: SimulatorOptions = {}): Promise<RunningSimulator> {
  const host = opts.host ?? '127.0.0.1';
  const clientId = opts.clientId ?? `sim-client-${randomBytes(4).toString('hex')}`;
  const clientSecret = opts.clientSecret ?? randomBytes(18).toString('base64url');
  const seed = opts.seed ?? 'verdict';
  const count = Math.max(0, Math.floor(opts.executions ?? DEFAULT_EXECUTIONS));
  const days = Math.max(1, Math.floor(opts.days ?? 90));
  const anchor = opts.anchor ?? new Date();
  const faults: FaultKnobs = { ...DEFAULT_FAULTS, ...opts.faults };
  const rateLimits: RateLimitSettings | null =
    opts.rateLimits === false
      ? null
      : { ...DEFAULT_RATE_LIMITS, ...(typeof opts.rateLimits === 'object' ? opts.rateLimits : {}) };

  let url = '';
  const baseUrl = () => url;
  const callbacks = new CallbackDispatcher(
    () => faults,
    opts.callbackRetryDelaysMs ?? [1000, 2000, 4000, 8000, 16000],
    opts.callbackTimeoutMs ?? 5000,
    opts.log,
  );
  const engine = new Engine({
    seed,
    count,
    days,
    anchor,
    baseUrl,
    processingDelayMs: opts.processingDelayMs ?? 1500,
    sessionTimeoutMs: opts.sessionTimeoutMs ?? 15 * 60_000,
    retentionMs: opts.retentionMs,
    defaultCallbackUrl: opts.callbackUrl,
    faults: () => faults,
    callbacks,
  });
  const stats = {
    requests: 0,
    byStatus: {} as Record<string, number>,
    rates: createRateMeters(),
    feedbackWrites: new Map<string, number>(),
  };
  const tokens = new TokenService('idv-simulator');
  const { app, resetAll } = createApp({
    engine,
    tokens,
    callbacks,
    faults,
    clientId,
    clientSecret,
    baseUrl,
    accessTokenLifetimeSec: opts.tokenLifetimeSec ?? 3600,
    rateLimits,
    allowInsecureCallbacks: opts.allowInsecureCallbacks ?? true,
    callbackHostAllowed: callbackHostPolicy(opts),
    reportSecret: randomBytes(16).toString('hex'),
    log: opts.log,
    stats,
  });

  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: opts.port ?? DEFAULT_PORT, hostname: host }, () =>
      resolve(s as Server),
    ) as Server;
    s.once('error', reject);
  });
  // Longer than any client keeps an idle connection: a client whose event loop is busy (a test
  // compiling schemas on a loaded machine) must not reuse a socket the server has just closed
  // (ECONNRESET). Node's default is 5 s; close() ends every connection anyway.
  server.keepAliveTimeout = 65_000;
  const addr = server.address() as AddressInfo;
  url = `http://${host.includes(':') ? `[${host}]` : host}:${addr.port}`;
  const sweeper = setInterval(() => engine.sweep(), opts.sweepIntervalMs ?? 250);
  sweeper.unref();

  let closed = false;
  return {
    url,
    clientId,
    clientSecret,
    seed,
    executions: count,
    faults,
    callbackAttempts: () => callbacks.list(),
    stats: () => ({
      requests: stats.requests,
      byStatus: { ...stats.byStatus },
      seededExecutions: count,
      apiExecutions: engine.executions.size,
      apiAccounts: engine.accounts.size,
      callbacksSent: callbacks.sent,
      callbacksPending: callbacks.pendingCount(),
      tokensIssued: tokens.issued,
      rates: rateSummary(stats.rates, rateLimits),
      feedback: feedbackSummary(stats.feedbackWrites),
    }),
    reset: resetAll,
    sweep: () => engine.sweep(),
    close: async () => {
      if (closed) return;
      closed = true;
      clearInterval(sweeper);
      callbacks.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
      });
    },
  };
}
/** Loopback, the default callback URL's host and the configured hosts; anything with the flag. */
function callbackHostPolicy(opts: SimulatorOptions): (host: string) => boolean {
  if (opts.allowAnyCallbackHost) return () => true;
  const allowed = new Set((opts.callbackHosts ?? []).map((h) => h.trim().toLowerCase()).filter(Boolean));
  if (opts.callbackUrl) {
    try {
      allowed.add(new URL(opts.callbackUrl).hostname.toLowerCase().replace(/^\[|\]$/g, ''));
    } catch {
      /* an invalid default URL fails where it is used */
    }
  }
  return (host) => isLoopbackHost(host) || allowed.has(host);
}
