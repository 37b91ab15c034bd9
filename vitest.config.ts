import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { postgresProjectFiles } from './test/support/postgres.js';

const apiInclude = ['test/api/**/*.test.ts'];
const multiInstanceInclude = ['test/multi-instance/**/*.test.ts'];
const reliabilityInclude = ['test/reliability/**/*.test.ts'];

export default defineConfig(async () => {
  // Checked once; when PostgreSQL cannot be reached its projects run a placeholder that says so loudly.
  const apiPostgres = await postgresProjectFiles(apiInclude);
  const multiInstance = apiPostgres.env.PIAFFE_POSTGRES_UNAVAILABLE
    ? apiPostgres
    : { include: multiInstanceInclude, env: {} };
  const reliabilityPostgres = apiPostgres.env.PIAFFE_POSTGRES_UNAVAILABLE
    ? apiPostgres
    : { include: reliabilityInclude, env: {} };
  // The server projects hash passwords at scrypt N 1024 instead of 16384 (docs/decisions/0056): a sign-up or log-in
  // costs a sixteenth. PIAFFE_TEST=1 is what lets a server take a cost below the default; child processes inherit both.
  const hashing = { PASSWORD_HASH_COST: '1024', PIAFFE_TEST: '1' };
  // The server projects run their files one after another in one process per worker (`isolate: false`), so the server's
  // modules are imported once per worker, not once per file (bench/README.md, "The test suite's time"). Each file still
  // starts its own servers on port 0 with a database or schema of its own; no test changes a module's state, the
  // environment or the timers (the unit project, which fakes timers, stays isolated).
  return {
    test: {
      // Three files at once on two cores (Vitest's own default is one there): the files mostly wait on their servers,
      // children and databases (two at once kept both cores about half busy, and three took the step from 583 s to
      // 471 s). Each file has its own database or schema and listens on port 0. Never more than three: a PostgreSQL
      // file holds up to two servers of 12 connections each besides its own, and the database allows 100 (76 at once
      // were seen with three). bench/README.md, "The test suite's time".
      maxWorkers: Math.min(3, availableParallelism() + 1),
      projects: [
        { test: { name: 'unit', include: ['src/**/*.test.ts'], environment: 'node' } },
        {
          test: {
            name: 'api-sqlite',
            isolate: false,
            include: apiInclude,
            env: { TEST_BACKEND: 'sqlite', LOG_LEVEL: 'silent', ...hashing },
            testTimeout: 20_000,
            hookTimeout: 30_000,
          },
        },
        {
          test: {
            name: 'api-postgres',
            isolate: false,
            include: apiPostgres.include,
            env: { TEST_BACKEND: 'postgres', LOG_LEVEL: 'silent', ...hashing, ...apiPostgres.env },
            testTimeout: 20_000,
            hookTimeout: 30_000,
          },
        },
        {
          test: {
            name: 'multi-instance',
            isolate: false,
            include: multiInstance.include,
            env: { TEST_BACKEND: 'postgres', LOG_LEVEL: 'silent', ...hashing, ...multiInstance.env },
            testTimeout: 30_000,
            hookTimeout: 30_000,
          },
        },
        // Crash, fuzz and access-control tests on a child-process server (test/reliability/support); a few minutes.
        {
          test: {
            name: 'reliability',
            isolate: false,
            include: reliabilityInclude,
            env: { TEST_BACKEND: 'sqlite', LOG_LEVEL: 'silent', ...hashing },
            testTimeout: 120_000,
            hookTimeout: 60_000,
          },
        },
        {
          test: {
            name: 'reliability-postgres',
            isolate: false,
            include: reliabilityPostgres.include,
            env: { TEST_BACKEND: 'postgres', LOG_LEVEL: 'silent', ...hashing, ...reliabilityPostgres.env },
            testTimeout: 120_000,
            hookTimeout: 60_000,
          },
        },
      ],
    },
  };
});
