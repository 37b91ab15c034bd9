import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** Builds dist/ when it is missing or older than the client's sources; another --dist is taken as it is. */
export function buildIfNeeded(path: string): void {
  const dir = resolve(path);
  const manifest = join(dir, '.vite', 'manifest.json');
  if (dir !== resolve('dist')) {
    if (!existsSync(manifest)) throw new Error(`${dir} has no .vite/manifest.json; build it with --manifest.`);
    return;
  }
  const sources = ['src/client', 'src/shared', 'public', 'index.html', 'vite.config.ts', 'package-lock.json'];
  if (existsSync(manifest) && statSync(manifest).mtimeMs > Math.max(...sources.map(newestMtime))) return;
  console.log('Building the client (dist/ is missing or older than the sources)...');
  const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('vite build failed.');
}

/** Builds the client and the server (dist/, dist-server/) when the sources changed since the last build, as `npm start` does. */
export function buildShopIfStale(): void {
  const build = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', "import { buildIfStale } from './scripts/build.mjs'; await buildIfStale();"],
    { stdio: 'inherit' },
  );
  if (build.status !== 0) throw new Error('the build failed');
}
