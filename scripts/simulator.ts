// `npm run simulator`: the identity-verification service simulator as a standalone server.
// Flags win over environment variables: --port (SIM_PORT, default 4010), --host (SIM_HOST),
// --seed (SIM_SEED), --executions (SIM_EXECUTIONS, default 1500), --days (SIM_DAYS, default 90),
// --anchor (SIM_ANCHOR, ISO time the generated data ends at; default now: a seeded cache names its own),
// --client-id (SIM_CLIENT_ID), --client-secret (SIM_CLIENT_SECRET, generated when unset),
// --callback-url (SIM_CALLBACK_URL), --processing-delay (SIM_PROCESSING_DELAY_MS, default 1500),
// --retention (SIM_RETENTION_MS), --no-rate-limits (SIM_RATE_LIMITS=0), --demo-captures (SIM_DEMO_CAPTURES=1:
// one web and one SDK journey at start), --quiet.
import { parseArgs } from 'node:util';
import { DEFAULT_EXECUTIONS, DEFAULT_PORT, runDemoCaptures, startSimulator } from '../lib/simulator';

function num(name: string, v: string | undefined): number | undefined {
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) {
    console.error(`simulator: ${name} must be a non-negative number (got "${v}")`);
    process.exit(2);
  }
  return n;
}

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      seed: { type: 'string' },
      executions: { type: 'string' },
      days: { type: 'string' },
      anchor: { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      'callback-url': { type: 'string' },
      'callback-hosts': { type: 'string' },
      'allow-any-callback-host': { type: 'boolean' },
      'processing-delay': { type: 'string' },
      retention: { type: 'string' },
      'no-rate-limits': { type: 'boolean' },
      'demo-captures': { type: 'boolean' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(
      'Usage: npm run simulator -- [--port 4010] [--seed demo] [--executions 1500] [--days 90] [--anchor ISO-TIME] [--client-id ID] [--client-secret SECRET]\n' +
        '       [--callback-url URL] [--callback-hosts a.example,b.example] [--allow-any-callback-host]\n' +
        '       [--processing-delay MS] [--retention MS] [--no-rate-limits] [--demo-captures] [--quiet]\n' +
        'Environment: SIM_PORT SIM_HOST SIM_SEED SIM_EXECUTIONS SIM_DAYS SIM_ANCHOR SIM_CLIENT_ID SIM_CLIENT_SECRET SIM_CALLBACK_URL SIM_CALLBACK_HOSTS\n' +
        '             SIM_ALLOW_ANY_CALLBACK_HOST SIM_PROCESSING_DELAY_MS SIM_RETENTION_MS SIM_RATE_LIMITS SIM_DEMO_CAPTURES\n' +
        "Callbacks go to loopback addresses, the callback URL's host and --callback-hosts only, unless --allow-any-callback-host.",
    );
    return;
  }
  const env = process.env;
  const anchorText = values.anchor ?? env.SIM_ANCHOR;
  const anchor = anchorText ? new Date(anchorText) : undefined;
  if (anchor && Number.isNaN(anchor.getTime())) {
    console.error(`simulator: --anchor must be an ISO date-time (got "${anchorText}")`);
    process.exit(2);
  }
  const quiet = values.quiet ?? false;
  const sim = await startSimulator({
    port: num('port', values.port ?? env.SIM_PORT) ?? DEFAULT_PORT,
    host: values.host ?? env.SIM_HOST ?? '127.0.0.1',
    seed: values.seed ?? env.SIM_SEED ?? 'verdict',
    executions: num('executions', values.executions ?? env.SIM_EXECUTIONS) ?? DEFAULT_EXECUTIONS,
    days: num('days', values.days ?? env.SIM_DAYS),
    anchor,
    clientId: values['client-id'] ?? (env.SIM_CLIENT_ID || undefined),
    clientSecret: values['client-secret'] ?? (env.SIM_CLIENT_SECRET || undefined),
    callbackUrl: values['callback-url'] ?? (env.SIM_CALLBACK_URL || undefined),
    callbackHosts: (values['callback-hosts'] ?? env.SIM_CALLBACK_HOSTS ?? '').split(',').filter(Boolean),
    allowAnyCallbackHost:
      values['allow-any-callback-host'] ??
      ['1', 'true', 'on', 'yes'].includes(String(env.SIM_ALLOW_ANY_CALLBACK_HOST ?? '').toLowerCase()),
    processingDelayMs: num('processing-delay', values['processing-delay'] ?? env.SIM_PROCESSING_DELAY_MS),
    retentionMs: num('retention', values.retention ?? env.SIM_RETENTION_MS),
    rateLimits: !(values['no-rate-limits'] || env.SIM_RATE_LIMITS === '0' || env.SIM_RATE_LIMITS === 'false'),
    log: quiet ? undefined : (line) => console.log(`[sim] ${line}`),
  });
  const basic = `${sim.clientId}:${sim.clientSecret}`;
  if (
    values['demo-captures'] ||
    ['1', 'true', 'on', 'yes'].includes(String(env.SIM_DEMO_CAPTURES ?? '').toLowerCase())
  ) {
    const ids = await runDemoCaptures(sim.url, sim.clientId, sim.clientSecret);
    console.log(`Demo journeys through the web page and the SDK: ${ids.join(', ')}`);
  }
  console.log(`Identity-verification simulator listening
  base URL:      ${sim.url}
  client id:     ${sim.clientId}
  client secret: ${sim.clientSecret}
  seed:          ${String(sim.seed)} (${sim.executions} demo executions)

Try:
  TOKEN=$(curl -s -u '${basic}' -H 'Accept: application/json' -d grant_type=client_credentials ${sim.url}/oauth2/token | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')
  curl -s -X POST ${sim.url}/api/v1/accounts -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -H 'User-Agent: Acme Review/1.0' \\
    -d '{"customerInternalReference":"demo-1","workflowDefinition":{"key":"10013","credentials":[{"category":"ID"},{"category":"SELFIE"}]}}'
  # then open the answer's web.href in a browser to capture through the web page
`);
  let stopping = false;
  const stop = async (sig: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\nsimulator: ${sig} received, stopping`);
    await sim.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((e) => {
  console.error('simulator: failed to start:', e instanceof Error ? e.message : e);
  process.exit(1);
});
