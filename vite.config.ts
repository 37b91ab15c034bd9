import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig(({ command }) => ({
  plugins: [react()],
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
            // Small modules of ours that most pages share, /home included, and that need no zod: one chunk, rather
            // than a file each (each file a page loads costs a request and its own gzip overhead). ADR 0010.
            {
              name: 'shared',
              test: /[\\/]src[\\/](shared[\\/](money|brand|notices|paths|settings)\.ts|client[\\/](components[\\/]alert\.tsx|lib[\\/]live-events\.ts))$/,
            },
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
