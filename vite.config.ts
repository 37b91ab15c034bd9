import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * React Router's published build keeps components it does not use (NavLink, Form, HistoryRouter...): their
 * `X.displayName = "..."` assignments and un-annotated `React.forwardRef(...)` calls count as side effects,
 * so tree-shaking must keep them. Without both, about 2 KB gzip less on every first load. Only display names
 * for React DevTools are lost.
 */
function treeShakeReactRouter(): Plugin {
  return {
    name: 'piaffe:tree-shake-react-router',
    apply: 'build',
    transform: {
      filter: { id: /[\\/]node_modules[\\/]react-router[\\/]dist[\\/]/ },
      handler(code) {
        return code
          .replace(/^[\w$]+\.displayName = "[^"]*";$/gm, '')
          .replace(/= (React\d*\.(?:forwardRef|createContext|memo)\()/g, '= /* @__PURE__ */ $1');
      },
    },
  };
}

export default defineConfig(({ command }) => ({
  plugins: [react(), treeShakeReactRouter()],
  resolve: {
    // React Router's package exports always point at its development build, with its warnings
    // (remix-run/react-router#14102); the production build sits beside it.
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
          groups: [{ name: 'vendor', test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ }],
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
