import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createAppRouter } from './app/router';
import { shopFromPage } from './lib/page-data';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element.');

const router = createAppRouter();
const app = (
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>
);
// A page brought back from the browser's history is rendered anew over what its old HTML shows: its data is not used
// (lib/page-data.ts), so what the server rendered then is not what this browser renders now.
if (root.firstChild && shopFromPage) {
  // The server rendered this page (src/client/server-render.tsx, docs/product.md §24): it stays as it is while the
  // page's module loads and its loader takes its data from the page's HTML (no request); once the router has its
  // first page, React takes the page over without rendering it anew. Hydrating earlier would render the router's
  // empty fallback in its place.
  const hydrate = () => {
    if (!router.state.initialized) return;
    stop();
    hydrateRoot(root, app);
  };
  const stop = router.subscribe(hydrate);
  hydrate();
} else {
  createRoot(root).render(app);
}
