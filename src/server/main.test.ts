import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { scriptArgs } from '../../test/support/command-line';

/** The server started with only `env`: built when the build is fresh, as in `npm test` (`scriptArgs`). */
function start(env: Record<string, string>) {
  return spawnSync(process.execPath, scriptArgs('main'), {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
}

describe('starting with a setting that cannot work', { timeout: 30_000 }, () => {
  it.each([
    [{ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' }, 'AUTH_SECRET must be set'],
    [{ PORT: 'eighty' }, 'PORT must be a port number'],
    [{ DATABASE_URL: 'mysql://shop' }, 'DATABASE_URL must start with file:'],
    [
      { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test', AUTH_SECRET: randomBytes(32).toString('base64url') },
      'could not start: connect ECONNREFUSED',
    ],
  ])('%o says so in one line and exits 1, without a stack trace', (env, message) => {
    const { status, stderr, stdout } = start(env);
    expect(status).toBe(1);
    expect(stderr).toMatch(new RegExp(`^piaffe: ${message}[^\\n]*\\n$`));
    expect(stdout).toBe('');
  });
});
