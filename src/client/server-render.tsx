import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import {
  createStaticHandler,
  createStaticRouter,
  type LoaderFunctionArgs,
  type RouteObject,
  StaticRouterProvider,
} from 'react-router';
import type { PageData } from '../shared/page-data';
import { type Page, pages } from '../shared/pages';
import { appRoutes } from './app/app-routes';
import HomePage from './features/catalogue/home-page';
import ProductPage from './features/catalogue/product-page';
import { serveSession } from './lib/session';
import { setShop } from './lib/shop';

/** The request's page data, as the server hands it to the loaders below (`requestContext`). */
const served = ({ context }: LoaderFunctionArgs) => context as PageData;

/**
 * The pages the server renders (docs/product.md §24), each with what its loader gives in the browser on the first view
 * (the page's data from its HTML, home-page.tsx and product-page.tsx): the same components with the same data, so
 * that hydration finds what was rendered. A page without its data (an address the list refuses, an unknown slug) is
 * not rendered: the browser asks and is told, as before.
 */
function route(page: Page, Component: RouteObject['Component'], loader: RouteObject['loader']): RouteObject {
  return { path: page.path, handle: page, Component, loader };
}

const handler = createStaticHandler(
  appRoutes([
    route(pages.home, HomePage, (args) => served(args).catalogue ?? null),
    route(pages.product, ProductPage, (args) => {
      const own = served(args).product;
      return own && own.product.slug === args.params.slug ? { product: own.product, version: own.version } : null;
    }),
  ]),
);

/**
 * The HTML of the `#root` element of the page at `url` (a public page of a shop open to everyone), rendered from the
 * app's own components with `data`, the page data the server has just read and writes into the page
 * (src/server/page-data.ts); undefined for a page this does not render, or that has no data to render with.
 * React Router's static handler, its static router and `renderToString` (React Router's "Custom Framework" way),
 * without the router's inline hydration script: the browser's loaders take the same data from the page's JSON element
 * (the CSP allows no inline script), then hydrate (src/client/main.tsx).
 */
export async function renderPage(url: string, data: PageData): Promise<string | undefined> {
  const context = await handler.query(new Request(url), { requestContext: data });
  if (context instanceof Response || context.statusCode !== 200 || context.errors) return undefined;
  if (Object.values(context.loaderData).some((value) => value === null)) return undefined;
  const router = createStaticRouter(handler.dataRoutes, context);
  // The stores that live outside React (the session, the shop) are this module's, one for every request: each render
  // sets them to its request's data and renders at once. renderToString runs to its end without yielding, so no
  // other request's render comes between the two.
  serveSession(data.session);
  setShop(data.shop);
  const html = renderToString(
    <StrictMode>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </StrictMode>,
  );
  // React puts the page's `<title>` (DocumentTitle) first, among the preloads it hoists: the head has the same title
  // already (src/server/crawlers/head.ts), and a second one inside the body is not valid HTML. Hydration does not
  // look for it there: the browser's React keeps the head's up to date, as on a page it renders itself.
  return html.replace(/^((?:<link [^>]*>)*)<title>[^<]*<\/title>/, '$1');
}
