import 'server-only';
/**
 * Configuration of the identity-verification client, read from the environment.
 *
 * The client id and secret must never reach the browser: `server-only` makes a client bundle
 * that imports this module (directly or through `client.ts`) fail at build time. Scripts run
 * with tsx outside Next must therefore start Node with `--conditions=react-server`
 * (e.g. `NODE_OPTIONS=--conditions=react-server tsx scripts/worker.ts`), because the package's
 * default export throws on purpose; vitest aliases it (vitest.config.ts).
 */
import { z } from 'zod';
import {
  IDV_DOMAIN_RE,
  IDV_DOMAIN_RULE,
  IDV_REGIONS,
  resolveIdvAddresses,
  type IdvConcern,
  type IdvRegion,
} from '@/lib/env/idv-addresses';
import { IdvConfigError } from './errors';

export interface IdvConfig {
  /** {auth_url}: the token service, POST {authUrl}/oauth2/token. */
  authUrl: string;
  /** Account create/update (A1, A2). */
  accountUrl: string;
  /** Credential upload and finalize (C1-C7) when no absolute URL was issued. */
  apiUrl: string;
  /** Retrieval, feedback, deletion, list, health (R1-R12). */
  retrievalUrl: string;
  clientId: string;
  clientSecret: string;
  userAgent: string;
  /** Per-request timeout (whole request including the body), ms. */
  timeoutMs: number;
  /** Retries after the first attempt on 429, 5xx and network errors. */
  maxRetries: number;
  retrievalRatePerSec: number;
  retrievalBurst: number;
  accountRatePerSec: number;
  accountBurst: number;
  apiRatePerSec: number;
  apiBurst: number;
  tokenRatePerSec: number;
  tokenBurst: number;
  /** Plain http to a host outside loopback (IDV_ALLOW_INSECURE=1, test setups only; addresses.ts). */
  allowInsecure?: boolean;
}

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const httpUrl = z.preprocess(
  emptyToUndefined,
  z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
);
const idvDomain = z.string().trim().toLowerCase().regex(IDV_DOMAIN_RE, IDV_DOMAIN_RULE);
const positive = (def: number) => z.preprocess(emptyToUndefined, z.coerce.number().positive().default(def));
const count = (def: number) => z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(20).default(def));
const atLeastOne = (def: number) => z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(def));
const flag = z.preprocess(
  emptyToUndefined,
  z
    .enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no'])
    .transform((v) => ['1', 'true', 'on', 'yes'].includes(v))
    .default(false),
);

const EnvSchema = z.object({
  IDV_BASE_URL: httpUrl,
  IDV_AUTH_URL: httpUrl,
  IDV_ACCOUNT_URL: httpUrl,
  IDV_API_URL: httpUrl,
  IDV_RETRIEVAL_URL: httpUrl,
  IDV_REGION: z.preprocess(
    (v) => (typeof v === 'string' ? emptyToUndefined(v.trim().toUpperCase()) : v),
    z.enum(Object.keys(IDV_REGIONS) as [IdvRegion, ...IdvRegion[]], { error: 'must be US, EU or SG' }).optional(),
  ),
  IDV_DOMAIN: z.preprocess(emptyToUndefined, idvDomain.optional()),
  IDV_ALLOW_INSECURE: flag,
  IDV_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  IDV_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
  IDV_USER_AGENT: z.preprocess(emptyToUndefined, z.string().default('Verdict/0.1')),
  IDV_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(15_000)),
  IDV_MAX_RETRIES: count(4),
  // Service limits (service-facts): retrieval 15/s per customer, account 1/s with short bursts, token 10/s.
  IDV_RETRIEVAL_RATE_PER_SEC: positive(15),
  IDV_RETRIEVAL_BURST: atLeastOne(1),
  IDV_ACCOUNT_RATE_PER_SEC: positive(1),
  IDV_ACCOUNT_BURST: atLeastOne(5),
  // Upload rate is not documented; 10/s keeps a demo upload burst polite.
  IDV_API_RATE_PER_SEC: positive(10),
  IDV_API_BURST: atLeastOne(5),
  IDV_TOKEN_RATE_PER_SEC: positive(10),
  IDV_TOKEN_BURST: atLeastOne(1),
});

/**
 * Builds the client configuration from the environment. `IDV_BASE_URL` serves every concern
 * (the simulator offers one host); `IDV_AUTH_URL`, `IDV_ACCOUNT_URL`, `IDV_API_URL` and
 * `IDV_RETRIEVAL_URL` override it per concern (the real service has one host per concern);
 * without either, `IDV_REGION` and `IDV_DOMAIN` give the region's hosts (addresses.ts).
 * Throws an `IdvConfigError` naming every missing or invalid variable, a plain-http address
 * outside loopback included.
 */
export function idvConfigFromEnv(env: Record<string, string | undefined> = process.env): IdvConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${String(i.path[0] ?? '(root)')}: ${i.message}`);
    throw new IdvConfigError(`Invalid identity-verification configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const resolved = resolveIdvAddresses(e);
  const problems = resolved.problems.map((p) => `  ${p}`);
  const urls = resolved.urls as Record<IdvConcern, string>;
  if (!e.IDV_CLIENT_ID) problems.push('  IDV_CLIENT_ID: not set');
  if (!e.IDV_CLIENT_SECRET) problems.push('  IDV_CLIENT_SECRET: not set');
  if (problems.length) throw new IdvConfigError(`Invalid identity-verification configuration:\n${problems.join('\n')}`);

  return {
    ...urls,
    clientId: e.IDV_CLIENT_ID!,
    clientSecret: e.IDV_CLIENT_SECRET!,
    userAgent: e.IDV_USER_AGENT,
    timeoutMs: e.IDV_TIMEOUT_MS,
    maxRetries: e.IDV_MAX_RETRIES,
    retrievalRatePerSec: e.IDV_RETRIEVAL_RATE_PER_SEC,
    retrievalBurst: e.IDV_RETRIEVAL_BURST,
    accountRatePerSec: e.IDV_ACCOUNT_RATE_PER_SEC,
    accountBurst: e.IDV_ACCOUNT_BURST,
    apiRatePerSec: e.IDV_API_RATE_PER_SEC,
    apiBurst: e.IDV_API_BURST,
    tokenRatePerSec: e.IDV_TOKEN_RATE_PER_SEC,
    tokenBurst: e.IDV_TOKEN_BURST,
    allowInsecure: e.IDV_ALLOW_INSECURE,
  };
}

/** Defaults for everything but the addresses and credentials (handy when building a config in code). */
export const IDV_CONFIG_DEFAULTS = {
  userAgent: 'Verdict/0.1',
  timeoutMs: 15_000,
  maxRetries: 4,
  retrievalRatePerSec: 15,
  retrievalBurst: 1,
  accountRatePerSec: 1,
  accountBurst: 5,
  apiRatePerSec: 10,
  apiBurst: 5,
  tokenRatePerSec: 10,
  tokenBurst: 1,
} satisfies Partial<IdvConfig>;
