export interface FaultKnobs {
  /** Added to every service response, in milliseconds. */
  latencyMs: number;
  /** Share of service requests (0..1) answered with 503. */
  errorRate: number;
  /** The next N service requests get 429 with Retry-After. */
  burst429: number;
  /** When set, access tokens (and transaction tokens, if shorter) live this many seconds. */
  tokenLifetimeSec: number | null;
  /** Share of callbacks (0..1) that are silently dropped (recorded, never sent). */
  dropCallbacks: number;
  /** Deliver every successful callback twice. */
  duplicateCallbacks: boolean;
  /** Finalized executions stay ACQUIRED until this is turned off again. */
  stallProcessing: boolean;
}

export const DEFAULT_FAULTS: FaultKnobs = {
  latencyMs: 0,
  errorRate: 0,
  burst429: 0,
  tokenLifetimeSec: null,
  dropCallbacks: 0,
  duplicateCallbacks: false,
  stallProcessing: false,
};

export interface RateLimitSettings {
  /** Token endpoint requests per second (sliding one-second window). Default 10. */
  tokenPerSec: number;
  /** Account create/update: sustained per second and burst. Defaults 1 and 20. */
  accountPerSec: number;
  accountBurst: number;
  /** Retrieval operations: sustained per second and burst. Defaults 15 and 60. */
  retrievalPerSec: number;
  retrievalBurst: number;
}
export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  tokenPerSec: 10,
  accountPerSec: 1,
  accountBurst: 20,
  retrievalPerSec: 15,
  retrievalBurst: 60,
};

export interface SimulatorOptions {
  /** 0 = random free port. Default 4010. */
  port?: number;
  host?: string;
  clientId?: string;
  clientSecret?: string;
  seed?: string | number;
  /** Number of generated demo executions. Default 1500. */
  executions?: number;
  /** Days the demo executions spread over. Default 90. */
  days?: number;
  /** End of the demo range. Default: now. */
  anchor?: Date;
  /** Time from finalize to PROCESSED. Default 1500 ms. */
  processingDelayMs?: number;
  /** Default callback URL (an account request's callbackUrl overrides it). */
  callbackUrl?: string;
  /** Wipe personal data this long after completion (as the real service does). Default: never. */
  retentionMs?: number;
  /** Access token life in seconds. Default 3600. */
  tokenLifetimeSec?: number;
  /** true (default) = the real limits; false = none; or individual settings. */
  rateLimits?: boolean | Partial<RateLimitSettings>;
  log?: (line: string) => void;
  /** Accept http, IP hosts and ports in callback URLs (local use). Default true. */
  allowInsecureCallbacks?: boolean;
  /**
   * Hosts callbacks may go to besides loopback addresses (the default callback URL's host is
   * always allowed). The simulator is reachable by anyone holding its client credentials; without
   * this a request could make it POST to any host on the network.
   */
  callbackHosts?: string[];
  /** Lift the callback host restriction (an integrator's own machine, on purpose). Default false. */
  allowAnyCallbackHost?: boolean;
  /** Delays between callback retries. Default 1 s, 2 s, 4 s, 8 s, 16 s (6 attempts in all). */
  callbackRetryDelaysMs?: number[];
  /** Timeout of one callback attempt. Default 5000 ms. */
  callbackTimeoutMs?: number;
  /** A session expires this long after the last upload. Default 15 min. */
  sessionTimeoutMs?: number;
  /** How often expiries, processing and retention are checked. Default 250 ms. */
  sweepIntervalMs?: number;
  /** Initial fault knobs. */
  faults?: Partial<FaultKnobs>;
}

export interface CallbackAttempt {
  executionId: string;
  url: string;
  attempt: number;
  at: string;
  status?: number;
  error?: string;
  dropped?: boolean;
  duplicate?: boolean;
  body: unknown;
}

export interface SimulatorStats {
  requests: number;
  byStatus: Record<string, number>;
  seededExecutions: number;
  apiExecutions: number;
  apiAccounts: number;
  callbacksSent: number;
  callbacksPending: number;
  tokensIssued: number;
  /**
   * Per rate-limited class of operations (T; A1/A2; retrieval R1-R12 with feedback): requests
   * received, 429s answered, the most requests in any one-second window (as the handlers see
   * them: a request that waited behind others counts when it is handled), the mean rate from the
   * first request to the last, and the limit in force (a token bucket: `perSec` sustained after
   * `burst` at once; the token endpoint's sliding window allows `perSec` at once).
   */
  rates: Record<
    'token' | 'account' | 'retrieval',
    {
      requests: number;
      rejected: number;
      peakPerSec: number;
      meanPerSec: number | null;
      limit: { perSec: number; burst: number } | null;
    }
  >;
  /** Accepted feedback writes (R11): in all, executions labelled, executions written more than once. */
  feedback: { writes: number; executions: number; repeated: number };
}

export interface RunningSimulator {
  url: string;
  clientId: string;
  clientSecret: string;
  seed: string | number;
  executions: number;
  /** Mutable: changes apply to the next request. */
  faults: FaultKnobs;
  close(): Promise<void>;
  /** Every callback attempt so far (oldest first). */
  callbackAttempts(): CallbackAttempt[];
  stats(): SimulatorStats;
  /** Clears API-created data, overlays, callbacks, rate-limit state and faults. */
  reset(): void;
  /** Runs the expiry/processing/retention sweep now. */
  sweep(): void;
}
