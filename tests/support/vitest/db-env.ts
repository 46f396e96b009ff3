import { inject } from 'vitest';

// Runs in each test worker before the test files: points lib/db at the run's database.
process.env.DATABASE_URL = inject('databaseUrl');
