import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import prettier from 'eslint-config-prettier/flat';

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
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Components never reach into the database: data flows through lib/data.
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@/lib/db/client', '@/lib/db/client.*'], message: 'Use lib/data/* from components.' }] },
      ],
    },
  },
  {
    files: ['lib/**', 'app/api/**', 'scripts/**', 'tests/**', 'app/**/actions.ts'],
    rules: { 'no-restricted-imports': 'off' },
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
