import { type RouteObject, redirect } from 'react-router';
import { startPage } from '../../shared/pages';
import { Layout } from './layout';
import { RouteError } from './route-error';

/**
 * The app's routes around its pages (`pageRoutes`, one per entry of src/shared/pages.ts): the layout, the error
 * boundary inside it, `/` and the Snap! page. The browser's router (router.tsx) and the server's rendering of a public
 * page (server-render.tsx) are built from this one tree, so that what the server renders is what the browser hydrates.
 */
export function appRoutes(pageRoutes: RouteObject[]): RouteObject[] {
  return [
    {
      Component: Layout,
      // Until the first page's module is in and its guard has run, nothing at all: then the frame and the page
      // appear together, in one paint, never the frame with an empty main area first.
      HydrateFallback: () => null,
      children: [
        {
          // Inside the layout, so that a page that cannot load keeps the header, the banner and the footer.
          ErrorBoundary: RouteError,
          children: [
            { index: true, loader: () => redirect(startPage.path) },
            ...pageRoutes,
            // The Snap! page is loaded when first shown, off every page's first load.
            { path: '*', lazy: async () => ({ Component: (await import('../components/not-found')).NotFound }) },
          ],
        },
      ],
    },
  ];
}
