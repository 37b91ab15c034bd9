// `npm run build`: the client into dist/ and the server into dist-server/. `npm start` (scripts/start.mjs)
// builds only when the sources changed since the last build. Plain JavaScript: it must run before anything
// is built, with nothing but Node.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Everything a build depends on. */
const inputs = ['src', 'public', 'index.html', 'vite.config.ts', 'package-lock.json'];
export const serverDir = 'dist-server';
export const serverEntry = join(serverDir, 'main.js');
/** The shop's command lines: `npm run owner`, `stock`, `backup`, `restore` and `demo-data` (src/server/<name>-cli.ts). */
const cliNames = ['owner', 'stock', 'backup', 'demo-data'];
export const cliEntry = (name) => join(serverDir, `${name}-cli.js`);
/** The server's rendering of the public pages, built from the client's sources into `dist/.ssr/render.js`. */
const ssrEntry = 'src/client/server-render.tsx';
const ssrDir = join('dist', '.ssr');
const ssrFile = 'render.js';
/** Written after a successful build: the hash of the inputs it was built from. */
const stampFile = join(serverDir, '.sources');

function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

function sourcesHash() {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap(files)) hash.update(file).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

export async function build() {
  const sources = sourcesHash();
  // Vite is a development dependency: imported only when something must be built.
  const vite = await import('vite');
  await vite.build({ logLevel: 'warn' });
  // The server's rendering of the public pages (src/client/server-render.tsx, ADR 0063): the client's own components,
  // beside the client it renders for, under dist/.ssr (a path the server never serves). React and React Router are
  // bundled in, as their production builds whatever NODE_ENV the server runs with.
  await vite.build({
    logLevel: 'warn',
    publicDir: false,
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    ssr: { noExternal: true },
    build: {
      ssr: ssrEntry,
      outDir: ssrDir,
      emptyOutDir: true,
      manifest: false,
      target: 'node20',
      rolldownOptions: { output: { codeSplitting: false, entryFileNames: ssrFile } },
    },
  });
  await vite.build({
    configFile: false,
    logLevel: 'warn',
    publicDir: false,
    build: {
      // The server, and the command lines (npm run owner, stock, backup, restore), which share its code.
      ssr: true,
      rolldownOptions: {
        input: {
          main: 'src/server/main.ts',
          ...Object.fromEntries(cliNames.map((name) => [`${name}-cli`, `src/server/${name}-cli.ts`])),
        },
      },
      outDir: serverDir,
      emptyOutDir: true,
      target: 'node20',
      sourcemap: true,
    },
  });
  writeFileSync(stampFile, sources);
}

/** Whether dist/ and dist-server/ are there and were built from the sources as they are now. */
export function builtFromTheseSources() {
  const built =
    existsSync(stampFile) &&
    existsSync(serverEntry) &&
    cliNames.every((name) => existsSync(cliEntry(name))) &&
    existsSync(join('dist', 'index.html')) &&
    existsSync(join(ssrDir, ssrFile));
  return built && readFileSync(stampFile, 'utf8') === sourcesHash();
}

/** Builds when dist/ or dist-server/ is missing or was built from other sources (and the sources are here). */
export async function buildIfStale() {
  // A copy without sources, such as the container image (Dockerfile), runs what was built into it.
  if (!existsSync('src') && existsSync(serverEntry)) return;
  if (builtFromTheseSources()) return;
  process.stderr.write('Building Piaffe (the sources changed since the last build)...\n');
  await build();
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await build();
