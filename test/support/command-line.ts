import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { builtFromTheseSources, cliEntry } from '../../scripts/build.mjs';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

let built: boolean | undefined;

/**
 * Whether dist/ and dist-server/ were built from the sources as they are now, as in `npm test`, whose build comes
 * first. Decided once per test worker: hashing the sources takes a moment, and no test changes them.
 */
function builtIsFresh(): boolean {
  built ??= builtFromTheseSources();
  return built;
}

/**
 * How a child process runs the server's `src/server/<script>.ts` (`main`, or a command line such as `stock-cli`):
 * built (`dist-server/<script>.js`, as `npm start` and `npm run <name>` run it; about 1.4 s a start against 3.6 s
 * through tsx on a quiet machine, bench/README.md "The test suite's time") when the build is fresh (`builtIsFresh`);
 * otherwise from the sources through tsx, so that a build of other sources is never tested.
 */
export function scriptArgs(script: 'main' | `${CommandName}-cli`): string[] {
  if (!builtIsFresh()) return ['--import', 'tsx', `src/server/${script}.ts`];
  return ['--enable-source-maps', script === 'main' ? builtServer : cliEntry(script.slice(0, -'-cli'.length))];
}

/** The built server, as `npm start` runs it. */
export const builtServer = 'dist-server/main.js';

/** The shop's command lines, `npm run <name>`. */
type CommandName = 'owner' | 'stock' | 'backup' | 'demo-data';

/**
 * One of the shop's command lines (`src/server/<name>-cli.ts`, as `npm run <name>` runs it built) as a child process,
 * on the database `databaseUrl` names, with the server's other settings from `env`.
 */
export async function runCommand(
  name: CommandName,
  databaseUrl: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...scriptArgs(`${name}-cli`), ...args], {
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
