import { defineConfig } from 'vitest/config';
import { postgresProjectFiles } from './test/support/postgres.js';

const apiInclude = ['test/api/**/*.test.ts'];
const multiInstanceInclude = ['test/multi-instance/**/*.test.ts'];

export default defineConfig(async () => {
  // Checked once; when PostgreSQL cannot be reached its projects run a placeholder that says so loudly.
  const apiPostgres = await postgresProjectFiles(apiInclude);
  const multiInstance = apiPostgres.env.PIAFFE_POSTGRES_UNAVAILABLE
    ? apiPostgres
    : { include: multiInstanceInclude, env: {} };
  return {
    test: {
      projects: [
        { test: { name: 'unit', include: ['src/**/*.test.ts'], environment: 'node' } },
        {
          test: {
            name: 'api-sqlite',
            include: apiInclude,
            env: { TEST_BACKEND: 'sqlite', LOG_LEVEL: 'silent' },
            testTimeout: 20_000,
            hookTimeout: 30_000,
          },
        },
        {
          test: {
            name: 'api-postgres',
            include: apiPostgres.include,
            env: { TEST_BACKEND: 'postgres', LOG_LEVEL: 'silent', ...apiPostgres.env },
            testTimeout: 20_000,
            hookTimeout: 30_000,
          },
        },
        {
          test: {
            name: 'multi-instance',
            include: multiInstance.include,
            env: { TEST_BACKEND: 'postgres', LOG_LEVEL: 'silent', ...multiInstance.env },
            testTimeout: 30_000,
            hookTimeout: 30_000,
          },
        },
      ],
    },
  };
});
