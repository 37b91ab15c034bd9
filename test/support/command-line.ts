import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
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
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', `src/server/${name}-cli.ts`, ...args],
      {
        cwd: resolve('.'),
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          AUTH_SECRET: 'cli-test-secret-0123456789abcdef01234',
          ...env,
        },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as CommandResult;
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
