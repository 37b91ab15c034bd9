import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { type DataRouter, RouterProvider } from 'react-router';
import { createAppRouter } from './app/router';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element.');

/** Settles when the router has its first page: the page's module is in and its loader has run. */
function firstPage(router: DataRouter): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
}

const router = createAppRouter();
const app = (
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>
);
if (root.firstChild) {
  // The server rendered this page (src/client/server-render.tsx, docs/product.md §24): it stays as it is while the
  // page's module loads and its loader takes its data from the page's HTML (no request), then React takes it over
  // without rendering it anew. Hydrating earlier would render the router's empty fallback in its place.
  void firstPage(router).then(() => hydrateRoot(root, app));
} else {
  createRoot(root).render(app);
}
