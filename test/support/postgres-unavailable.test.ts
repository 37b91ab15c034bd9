import { it } from 'vitest';
import { unavailableEnv } from './postgres';

/** Stands in for the PostgreSQL suites when the database cannot be reached (see vitest.config.ts). */
const reason = process.env[unavailableEnv] ?? 'unknown reason';
const ci = process.env.CI === 'true' || process.env.CI === '1';

if (ci) {
  it('PostgreSQL is reachable (required in CI)', () => {
    throw new Error(`The PostgreSQL tests cannot run: ${reason}`);
  });
} else {
  it.skip(`PostgreSQL suite did NOT run: ${reason}`, () => {});
}
