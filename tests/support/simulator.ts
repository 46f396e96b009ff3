import { IDV_CONFIG_DEFAULTS, type IdvConfig } from '@/lib/idv/config';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '@/lib/simulator';

/**
 * The one way tests start the simulator: on a free port, with test-sized delays (processing,
 * sweeps, callback retries) and a fixed anchor, so results do not move with the clock. Each
 * suite passes what it needs on top (seed, size, rate limits, hosts).
 */
export function startTestSimulator(opts: SimulatorOptions = {}): Promise<RunningSimulator> {
  return startSimulator({
    port: 0,
    executions: 120,
    processingDelayMs: 150,
    sweepIntervalMs: 25,
    callbackRetryDelaysMs: [100, 200, 400],
    callbackTimeoutMs: 2000,
    anchor: new Date('2026-06-01T12:00:00Z'),
    ...opts,
  });
}

/** Client settings that send every concern of the service to `sim`, signing in with its credentials. */
export function simulatorConfig(
  sim: { url: string; clientId: string; clientSecret: string },
  over: Partial<IdvConfig> = {},
): IdvConfig {
  return {
    ...IDV_CONFIG_DEFAULTS,
    authUrl: sim.url,
    accountUrl: sim.url,
    apiUrl: sim.url,
    retrievalUrl: sim.url,
    clientId: sim.clientId,
    clientSecret: sim.clientSecret,
    ...over,
  };
}
