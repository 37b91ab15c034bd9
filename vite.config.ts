import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { brotlied, brotliSuffix } from './src/server/compression.ts';

/**
 * A Brotli copy beside every text file of the build that it makes smaller (`assets/vendor-….js.br`), which the server sends to the browsers
 * that take it (src/server/static-files.ts, ADR 0028): made once here, at the highest quality.
 */
function brotliCopies(): Plugin {
  let outDir = '';
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
    );
  return {
    name: 'piaffe:brotli-copies',
    apply: 'build',
    configResolved(config) {
      // The server's rendering (dist/.ssr, scripts/build.mjs) is read from disk by the server, never sent.
      outDir = config.build.ssr ? '' : resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      if (!outDir) return;
      for (const file of files(outDir)) {
        const copy = brotlied(file, readFileSync(file));
        if (copy) writeFileSync(`${file}${brotliSuffix}`, copy);
      }
    },
  };
}

export default defineConfig(({ command }) => ({
  plugins: [react(), brotliCopies()],
  resolve: {
    // A resolution choice, not a patch: React Router's package exports have no production condition, so every
    // bundler resolves `react-router` to its development build (dist/development, with ENABLE_DEV_WARNINGS on;
    // remix-run/react-router#14102). Its published production build sits beside it, identical but for that flag.
    alias:
      command === 'build'
        ? [
            {
              find: /^react-router$/,
              replacement: fileURLToPath(
                new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url),
              ),
            },
          ]
        : [],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // For scripts/check-budget.ts: which files each route loads first.
    manifest: true,
    // Every browser we support has <link rel="modulepreload">; the polyfill would only add bytes.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          // React, ReactDOM and React Router change far less often than the app: one chunk, cached for a year
          // (assets/ are immutable), survives our deploys.
          groups: [
            { name: 'vendor', test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
            // zod on its own, named so: the pages that need it load it after their first paint (ADR 0028).
            { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/ },
            // Small modules of ours that most pages share, /home included (the table of pages, the money's format),
            // and the few lines each of the cart's and the checkout's (sizes, tax, delivery), none needing zod: one
            // chunk, rather than a file each (each file a page loads costs a request and its own compression's
            // overhead: 0.4 KB as sent on /checkout, bench/README.md). ADR 0010.
            {
              name: 'shared',
              test: /[\\/]src[\\/](shared[\\/](money|brand|notices|paths|pages|sizes|tax|delivery)\.ts|client[\\/](components[\\/](alert|document-title)\.tsx|lib[\\/]live-events\.ts))$/,
            },
            // The same for the pieces of a form (its fields and its state), which the sign-up, reset, checkout and
            // account pages share.
            { name: 'forms', test: /[\\/]src[\\/]client[\\/](components[\\/]field\.tsx|lib[\\/]use-form\.ts)$/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: `http://127.0.0.1:${process.env.API_PORT ?? 3001}`, changeOrigin: false },
    },
  },
}));
