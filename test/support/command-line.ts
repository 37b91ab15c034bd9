import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { builtFromTheseSources, cliEntry } from '../../scripts/build.mjs';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * How the command lines start: built (`dist-server/<name>-cli.js`, as `npm run <name>` runs them; about 1.4 s a
 * start against 3.6 s through tsx) when dist-server/ was built from the sources as they are now, as in `npm test`,
 * whose build comes first; otherwise from the sources through tsx, so that a build of other sources is never tested.
 * Decided once per test file: hashing the sources takes a moment.
 */
let built: boolean | undefined;
function entryOf(name: string): string[] {
  built ??= builtFromTheseSources();
  return built ? ['--enable-source-maps', cliEntry(name)] : ['--import', 'tsx', `src/server/${name}-cli.ts`];
}

/**
 * One of the shop's command lines (`src/server/<name>-cli.ts`, as `npm run <name>` runs it built) as a child process,
 * on the database `databaseUrl` names, with the server's other settings from `env`.
 */
export async function runCommand(
  name: 'owner' | 'stock' | 'backup' | 'demo-data',
  databaseUrl: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...entryOf(name), ...args], {
      cwd: resolve('.'),
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        AUTH_SECRET: 'cli-test-secret-0123456789abcdef01234',
        ...env,
      },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as CommandResult;
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
