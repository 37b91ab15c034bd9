import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ErrorCode, errorCatalogue } from '../../src/shared/errors';

/** Codes no client can trigger on purpose. */
const untriggerable: ErrorCode[] = ['server/internal'];

// A guard for the suite itself: a new error code without a test that expects it fails here.
describe('error catalogue coverage', () => {
  const dir = import.meta.dirname;
  const sources = readdirSync(dir)
    .filter((name) => name.endsWith('.test.ts') && name !== basename(import.meta.filename))
    .map((name) => readFileSync(join(dir, name), 'utf8'));

  it.each(Object.keys(errorCatalogue).filter((code) => !untriggerable.includes(code as ErrorCode)))(
    '%s is expected by at least one API test',
    (code) => {
      const quoted = new RegExp(`['"\`]${code.replace('/', '\\/')}['"\`]`);
      expect(sources.some((source) => quoted.test(source))).toBe(true);
    },
  );

  it('every code has a 4xx or 5xx status and a message', () => {
    for (const [code, { status, message }] of Object.entries(errorCatalogue)) {
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(status, code).toBeLessThan(600);
      expect(code.startsWith('server/') ? status >= 500 : status < 500, code).toBe(true);
      expect(message.length, code).toBeGreaterThan(0);
    }
  });
});
