import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import prettier from 'eslint-config-prettier/flat';

/*
 * Which folder may import which is not here: the layers, lowest first, and the folder-level cycle
 * rule live in .dependency-cruiser.cjs (`npm run lint` runs it). This file keeps the module-level
 * rules: no import cycles between files, the framework's own rules, Prettier's layout.
 */

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
    // Cycles are looked for in our own modules only (a bundled package is not parsed). The
    // framework's configs carry the import plugin for these files only (not .cjs configs).
    files: ['**/*.{ts,tsx,js,jsx,mjs}'],
    settings: { 'import/ignore': ['node_modules'] },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import/no-cycle': ['error', { ignoreExternal: true }],
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
