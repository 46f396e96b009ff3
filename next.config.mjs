import fs from 'node:fs';
import path from 'node:path';

/**
 * Turbopack resolves packages only inside its root. In a git worktree whose node_modules is a
 * symlink to another checkout, the root must contain both: their common ancestor.
 */
function turbopackRoot() {
  const here = process.cwd();
  let modules;
  try {
    modules = fs.realpathSync(path.join(here, 'node_modules'));
  } catch {
    return here;
  }
  let root = here;
  while (!modules.startsWith(root + path.sep) && path.dirname(root) !== root) root = path.dirname(root);
  return root;
}

/** @type {import('next').NextConfig} */
const securityHeaders = [
  { key: 'Strict-Transport-Security', value: 'max-age=63072000; includeSubDomains' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=()' },
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
];

const nextConfig = {
  poweredByHeader: false,
  turbopack: { root: turbopackRoot() },
  // Server-only packages that must not be bundled (PGlite loads WASM files from its own folder).
  serverExternalPackages: [
    '@electric-sql/pglite',
    '@electric-sql/pglite-socket',
    'pg-boss',
    'pg',
    'bcryptjs',
    'pdfkit',
    // One copy per process, shared with the console server (plain Node): the metrics registry,
    // the logger and the tracer provider are process-wide (lib/telemetry, lib/log.ts).
    'prom-client',
    'pino',
    '@opentelemetry/api',
    '@opentelemetry/sdk-trace-node',
    '@opentelemetry/exporter-trace-otlp-http',
    '@opentelemetry/resources',
  ],
  experimental: {
    // forbidden() renders app/forbidden.tsx with status 403.
    authInterrupts: true,
  },
  typescript: { ignoreBuildErrors: false },
  async headers() {
    return [{ source: '/:path*', headers: securityHeaders }];
  },
};

export default nextConfig;
