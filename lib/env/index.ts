import { z } from 'zod';
import {
  IDV_DOMAIN_RE,
  IDV_DOMAIN_RULE,
  IDV_REGIONS,
  resolveIdvAddresses,
  type IdvRegion,
} from '@/lib/env/idv-addresses';
import { parseHostAllowlist, parseIpAllowlist } from '@/lib/ip-allowlist';

/**
 * All configuration of Verdict, validated once. Every variable is documented in `.env.example`.
 * A bad value stops start-up with a message that names the variable.
 */
const bool = z
  .enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no', ''])
  .transform((v) => ['1', 'true', 'on', 'yes'].includes(v));
const optionalUrl = z.url().optional();
const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Interface the console listens on: loopback unless a deployment says otherwise. */
  HOST: z
    .preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^[0-9a-zA-Z.:-]+$/, 'must be a host name or an IP address')
        .optional(),
    )
    .default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('.data'),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
  ),
  PGLITE_PORT: z.coerce.number().int().min(0).max(65535).default(0),

  NEXTAUTH_URL: z.preprocess(emptyToUndefined, optionalUrl),
  NEXTAUTH_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  SESSION_MAX_HOURS: z.coerce.number().positive().default(12),
  SESSION_IDLE_MINUTES: z.coerce.number().positive().default(30),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_LOCK_MINUTES: z.coerce.number().positive().default(15),
  /** Free-text searches one user may run per minute, all consoles together. */
  SEARCHES_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(30),
  /** Read-API calls one key may make per minute, all consoles together (lib/api/keys.ts). */
  API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(120),

  DEMO_PASSWORD: z.preprocess(emptyToUndefined, z.string().min(8, 'must be at least 8 characters').max(128).optional()),
  ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.email().optional()),
  ADMIN_PASSWORD: z.preprocess(
    emptyToUndefined,
    z.string().min(12, 'must be at least 12 characters').max(128).optional(),
  ),

  /** Who must hold a second factor (lib/auth/mfa-policy.ts); the demo users in demo mode never do. */
  MFA_REQUIRED: z.preprocess(emptyToUndefined, z.enum(['all', 'privileged', 'off']).default('all')),
  /** How long a proved second factor covers the actions that ask for it again (lib/auth/step-up.ts). */
  STEP_UP_MINUTES: z.coerce
    .number()
    .positive()
    .max(24 * 60)
    .default(15),
  /** Users without a sign-in for this many days are flagged in the access review, and deactivated by "Mark reviewed" when set. */
  IDLE_DEACTIVATE_DAYS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(3650).optional()),
  /** `amr`/`acr` values of the identity provider that count as a second factor, comma-separated. */
  OIDC_MFA_VALUES: z.string().default(''),

  /**
   * Outgoing e-mail (lib/mail): `smtp://user:password@host:587` (STARTTLS when offered) or
   * `smtps://…:465`; unset = no e-mail (one-time links are shown to the admin instead).
   */
  SMTP_URL: z.preprocess(
    emptyToUndefined,
    z
      .url()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  /** Sender of Verdict's e-mail: `verdict@example.com` or `Verdict <verdict@example.com>`. */
  MAIL_FROM: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^(?:[^<>@\r\n]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/, 'must be an address or "Name <address>"')
      .optional(),
  ),

  OIDC_ISSUER: z.preprocess(emptyToUndefined, optionalUrl),
  OIDC_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  OIDC_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
  OIDC_NAME: z.string().default('Company SSO'),

  IDV_BASE_URL: z.preprocess(emptyToUndefined, optionalUrl),
  IDV_AUTH_URL: z.preprocess(emptyToUndefined, optionalUrl),
  IDV_ACCOUNT_URL: z.preprocess(emptyToUndefined, optionalUrl),
  IDV_API_URL: z.preprocess(emptyToUndefined, optionalUrl),
  IDV_RETRIEVAL_URL: z.preprocess(emptyToUndefined, optionalUrl),
  /** The service's region (US, EU, SG) and domain: the hosts of every concern not given a URL (lib/env/idv-addresses.ts). */
  IDV_REGION: z.preprocess(
    (v) => (typeof v === 'string' ? emptyToUndefined(v.trim().toUpperCase()) : v),
    z.enum(Object.keys(IDV_REGIONS) as [IdvRegion, ...IdvRegion[]], { error: 'must be US, EU or SG' }).optional(),
  ),
  IDV_DOMAIN: z.preprocess(
    emptyToUndefined,
    z.string().trim().toLowerCase().regex(IDV_DOMAIN_RE, IDV_DOMAIN_RULE).optional(),
  ),
  /** Plain http to a service outside loopback: for test setups only (the spec requires TLS). */
  IDV_ALLOW_INSECURE: z.preprocess(emptyToUndefined, bool.optional()).default(false),
  IDV_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  IDV_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
  IDV_USER_AGENT: z.string().min(1).default('Verdict/0.1'),
  /** Signs checkpoints of the audit chain (lib/evidence/signing.ts): Ed25519 PEM, or a 32-byte seed in hex or base64. */
  AUDIT_SIGNING_KEY: z.preprocess(
    emptyToUndefined,
    z.string().min(43, 'must be a PEM key or 32 bytes in hex or base64').optional(),
  ),
  IDV_CALLBACK_SECRET: z.preprocess(emptyToUndefined, z.string().min(16, 'must be at least 16 characters').optional()),
  CALLBACK_IP_ALLOWLIST: z
    .string()
    .default('')
    .superRefine((v, ctx) => {
      const r = parseIpAllowlist(v);
      if (!r.ok) ctx.addIssue({ code: 'custom', message: r.error });
    }),
  /** Proxies in front of the console that append to X-Forwarded-For (0 = none: the socket address is the client). */
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  TRUST_PROXY: z.preprocess(
    emptyToUndefined,
    z
      .undefined({ error: 'was replaced by TRUSTED_PROXY_HOPS (the number of proxies in front of the console)' })
      .optional(),
  ),

  WORKER: z.preprocess(emptyToUndefined, bool.optional()).default(true),
  RETENTION_DAYS: z.coerce.number().int().min(0).default(0),
  /** Postgres schema of the job queue (pg-boss); every console and worker of a deployment must agree. */
  JOB_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, 'must be a lower-case SQL identifier')
    .default('pgboss'),
  /** Minutes a claimed case may go untouched before it returns to its queue (lib/cases). */
  CASE_CLAIM_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(30),
  /** Minutes between polls of the service's list (catches what callbacks missed). */
  SYNC_POLL_MINUTES: z.coerce.number().int().min(1).max(1440).default(5),
  /** Hours between full reconciliations (0 = only on demand). */
  SYNC_RECONCILE_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 30)
    .default(24),
  /** Executions fetched in parallel by one worker. */
  SYNC_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
  /** On SIGTERM, how long a console lets requests finish and a worker lets its running jobs finish. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /**
   * Seconds between fetches of a result that is not ready yet (or 404 right after its callback).
   * Default: the vendor's recommended schedule (service-facts).
   */
  SYNC_RETRY_SCHEDULE: z
    .string()
    .default('40,60,100,160,240,340,460,600,760,940')
    .transform((v, ctx) => {
      const list = v.split(',').map((s) => Number(s.trim()));
      if (!list.length || list.some((n) => !Number.isFinite(n) || n < 0)) {
        ctx.addIssue({ code: 'custom', message: 'must be comma-separated seconds, e.g. 40,60,100' });
        return z.NEVER;
      }
      return list;
    }),

  /** Encrypts webhook signing secrets at rest; generated into DATA_DIR by `npm start` when unset. */
  WEBHOOK_SECRET_KEY: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  /** Keys the hashes of shared values in the ring tables (lib/rings); generated into DATA_DIR by `npm start` when unset. */
  LINK_KEY_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  /** Time limit of one webhook request (connection, answer and the excerpt of its body). */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /**
   * Internal receivers webhooks may reach despite the outbound policy (lib/webhooks/outbound.ts):
   * host names (`hooks.internal`, `*.corp.example`), IPs and CIDR ranges, comma-separated.
   */
  WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .default('')
    .superRefine((v, ctx) => {
      const r = parseHostAllowlist(v);
      if (!r.ok) ctx.addIssue({ code: 'custom', message: r.error });
    }),
  /** Webhook requests one worker sends at once (one per endpoint at a time). */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** How long a webhook delivery is retried before it counts as failed. */
  WEBHOOK_RETRY_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(72),
  /** A sync run without progress, or the service unreachable, for this long sends `sync.failed`. */
  SYNC_FAILED_AFTER_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(30),

  /** Bearer token of /metrics on the console and the workers (docs/operations.md); unset: /metrics refuses everyone. */
  METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16, 'must be at least 16 characters').optional()),
  /** A worker process's own /metrics listener (0 turns it off). */
  METRICS_WORKER_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  METRICS_WORKER_HOST: z.string().min(1).default('127.0.0.1'),
  /** pino's level: trace, debug, info, warn, error, fatal. */
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  /** The JSON lines are appended to this file as well as written to stdout. */
  LOG_FILE: z.preprocess(emptyToUndefined, z.string().optional()),
  /** OTLP/HTTP collector (`http://collector:4318`); tracing is off without it. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.preprocess(emptyToUndefined, optionalUrl),
  OTEL_SERVICE_NAME: z.preprocess(emptyToUndefined, z.string().optional()),

  /** Set by `npm start` when it runs the built-in simulator: demo users and demo banner. */
  VERDICT_DEMO: z.preprocess(emptyToUndefined, bool.optional()).default(false),
  SIM_PORT: z.coerce.number().int().min(0).max(65535).default(4010),
  SIM_SEED: z.string().default('verdict'),
  SIM_EXECUTIONS: z.coerce.number().int().min(0).max(10_000_000).default(1500),
});

export type Env = z.infer<typeof schema>;

export class ConfigError extends Error {}

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = schema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = result.data;
  if (env.OIDC_ISSUER && (!env.OIDC_CLIENT_ID || !env.OIDC_CLIENT_SECRET)) {
    throw new ConfigError(
      'Invalid configuration:\n  OIDC_CLIENT_ID / OIDC_CLIENT_SECRET: required when OIDC_ISSUER is set',
    );
  }
  if (env.SMTP_URL && !env.MAIL_FROM) {
    throw new ConfigError('Invalid configuration:\n  MAIL_FROM: required when SMTP_URL is set');
  }
  if (isRealServiceConfigured(env)) {
    // The same resolution and TLS rule as the client's (lib/env/idv-addresses.ts), checked before
    // anything starts: a mistyped http:// production address stops here, naming the variable.
    const problems = resolveIdvAddresses(env).problems;
    if (!(env.IDV_CLIENT_ID && env.IDV_CLIENT_SECRET))
      problems.push('IDV_CLIENT_ID / IDV_CLIENT_SECRET: required when the service address is set');
    if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
  return env;
}

/** A real (or separately run) service is configured when any of its addresses (or its region) is set. */
export function isRealServiceConfigured(
  env: Pick<
    Env,
    | 'IDV_BASE_URL'
    | 'IDV_AUTH_URL'
    | 'IDV_ACCOUNT_URL'
    | 'IDV_API_URL'
    | 'IDV_RETRIEVAL_URL'
    | 'IDV_REGION'
    | 'IDV_DOMAIN'
  >,
) {
  return Boolean(
    env.IDV_BASE_URL ||
    env.IDV_AUTH_URL ||
    env.IDV_ACCOUNT_URL ||
    env.IDV_API_URL ||
    env.IDV_RETRIEVAL_URL ||
    env.IDV_REGION ||
    env.IDV_DOMAIN,
  );
}

let cached: Env | undefined;
/** The validated configuration of this process (parsed on first use). */
export function env(): Env {
  cached ??= parseEnv();
  return cached;
}
