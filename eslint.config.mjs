import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import prettier from 'eslint-config-prettier/flat';

/**
 * The data flows one way (README, "Layout"): service -> lib/idv -> lib/sync -> database <- lib/data
 * <- app -> components. These rules fail the build on an arrow against it.
 */
const boundaries = [
  {
    target: './components',
    from: './app',
    message: 'Components never import app/: server actions live in lib/actions/.',
  },
  {
    target: './components',
    from: './lib/db',
    message: 'Components never reach the database: data flows through lib/data and lib/actions.',
  },
  {
    target: ['./lib/db', './lib/jobs', './lib/idv'],
    from: ['./lib/sync', './lib/data', './lib/feedback', './lib/webhooks'],
    message: 'lib/db, lib/jobs and lib/idv sit below sync, data access, feedback and webhooks: they never import them.',
  },
  {
    target: './lib/simulator',
    from: './lib',
    except: ['./simulator'],
    message: 'The simulator is an independent oracle: it imports nothing else of lib/.',
  },
  {
    target: './scripts',
    from: './tests',
    message: 'Scripts never import tests: shared helpers live in lib/ or scripts/.',
  },
];

const config = [
  {
    ignores: [
      '.next/**',
      'node_modules/**',
      '.data/**',
      'drizzle/**',
      'test-results/**',
      'playwright-report/**',
      'next-env.d.ts',
    ],
  },
  ...nextVitals,
  ...nextTs,
  {
    // Cycles are looked for in our own modules only (a bundled package is not parsed).
    settings: { 'import/ignore': ['node_modules'] },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import/no-cycle': ['error', { ignoreExternal: true }],
      'import/no-restricted-paths': ['error', { zones: boundaries }],
    },
  },
  {
    // Tests build deliberately malformed service data; the simulator assembles free-form wire
    // JSON whose shape the contract suite checks against the spec, not the type system.
    files: ['tests/**', 'lib/simulator/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // Layout is Prettier's (`npm run format`); lint checks it with `prettier --check`.
  prettier,
];

export default config;
