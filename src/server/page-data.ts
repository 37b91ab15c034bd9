import type { Context } from 'hono';
import { mayReach } from '../shared/access';
import { defaultCountry } from '../shared/address';
import { quoteQuery } from '../shared/api';
import { checkoutChoices } from '../shared/checkout';
import { productQuery } from '../shared/finding';
import { afterFirstPaintScript, appScriptsMetaName, type PageData, pageDataElementId } from '../shared/page-data';
import { type Page, pages } from '../shared/pages';
import { publicShopOf } from '../shared/settings';
import type { AppEnv } from './app-env';
import type { Roles } from './auth/roles';
import { sessionReply } from './auth/routes';
import type { Sessions } from './auth/sessions';
import type { CartOwner, CartStore } from './cart/cart-store';
import type { VisitorCarts } from './cart/visitor-carts';
import type { CatalogueStore } from './catalogue/catalogue-store';
import { type Head, withHead } from './crawlers/head';
import { versionOf } from './live/live-streams';
import type { OrderStore } from './orders/order-store';
import { offeredPaymentMethods } from './orders/payment-offer';
import { countryPlaces, regionsOf } from './places/places';
import type { SettingsStore } from './settings/settings-store';

export interface PageDataParts {
  sessions: Sessions;
  roles: Roles;
  catalogue: CatalogueStore;
  cart: CartStore;
  visitorCarts: VisitorCarts;
  orders: OrderStore;
  settings: SettingsStore;
  /** Whether this server offers cards (it has Stripe's keys). */
  takesCards: boolean;
}

/** What the page at `page` (undefined: the Snap! page) shows first, for the browser that asks (src/shared/page-data.ts). */
export function pageData(parts: PageDataParts) {
  const { sessions, roles, catalogue, cart, visitorCarts, orders, settings, takesCards } = parts;
  return async (c: Context<AppEnv>, page: Page | undefined): Promise<PageData> => {
    const shop = publicShopOf(await settings.current());
    const session = await sessions.find(c);
    // A visitor gets the data of the pages the shop shows them (docs/product.md §23), and no other.
    if (!session && !(page && mayReach(page.access, 'visitor', shop.access.openTo))) return { session: null, shop };
    const data: PageData = { session: session ? await sessionReply(roles, session.user) : null, shop };
    if (page === pages.home) {
      // An address the list refuses gets no data: the page asks, and shows why.
      const query = productQuery.safeParse(c.req.query());
      if (query.success) {
        const [list, version] = await Promise.all([catalogue.list(query.data), catalogue.shownVersion()]);
        data.catalogue = { list, version };
      }
    }
    if (page === pages.product) {
      // Its slug as the address has it; an unknown one, or a hidden product, gets no data: the page asks, and is told.
      const product = await catalogue.details(decodeURIComponent(c.req.path.split('/')[2] ?? ''));
      if (product) data.product = { product, version: await catalogue.shownVersion() };
    }
    if (page === pages.cart) {
      const visitor = session ? undefined : await visitorCarts.find(c);
      const owner: CartOwner | undefined = session ? { uid: session.user.uid } : visitor ? { visitor } : undefined;
      const items = owner ? await cart.list(owner) : [];
      data.cart = { items, version: versionOf(items) };
    }
    if (session && page === pages.checkout) {
      // The address form starts in defaultCountry (emptyAddress's), with its subdivisions to choose from.
      data.places = { countries: countryPlaces, regions: { [defaultCountry]: regionsOf(defaultCountry) ?? [] } };
      // The quote the page's query asks for, read as the page reads it. A query the quote refuses gets none, nor does
      // one with a discount code, whose tries GET /api/checkout/quote counts against guessing: the page asks.
      const { delivery, place, method, discountCode } = checkoutChoices(new URL(c.req.url).searchParams);
      const query = quoteQuery.safeParse({ delivery, ...place, ...(method === undefined ? {} : { method }) });
      if (discountCode === undefined && query.success) {
        const [quoted, methods] = await Promise.all([
          orders.quote(session.user, query.data),
          offeredPaymentMethods(settings, takesCards),
        ]);
        if (quoted.ok) data.checkout = { quote: quoted.quote, methods };
      }
    }
    return data;
  };
}

/** index.html's entry script and its modulepreload links, as the build writes them. */
const entryScript = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
const modulePreload = /<link rel="modulepreload" crossorigin href="([^"]+)">/g;

/**
 * The page's HTML with, before `</head>`, a modulepreload link for each of the page module's own files (`preloads`:
 * fetched beside the entry rather than after it has run) and its data in a JSON script element; `<` is escaped, so
 * nothing in the data can end the element or open a comment. The CSP allows no inline script, and needs to: a JSON
 * element is never run. Without data (it could not be read), no element: the page then asks the server. `head`, the
 * page's own title and tags for crawlers and shared links (src/server/crawlers/head.ts), replaces index.html's;
 * `content`, the page rendered on the server (src/server/crawlers/page-render.ts), goes into the empty `#root`.
 *
 * A page with its content is painted only once all of it is parsed (ADR 0063): its data element goes right after
 * `#root`, and the head says that the first paint waits for it (`<link rel="expect" blocking="render">`). A browser
 * paints a page it is still parsing, when its parser yields (a busy machine, a slow network): a paint that stopped in
 * the middle of the fixed footer (its first line without the shop's name, no credits line yet) and the next one moved
 * it, a layout shift without anything having changed.
 */
export function pageHtml(
  html: string,
  data: PageData | undefined,
  preloads: readonly string[] = [],
  head?: Head,
  content?: string,
): string {
  html = withHead(html, head);
  let links = preloads.map((path) => `<link rel="modulepreload" crossorigin href="${path}">`).join('');
  const json = data && JSON.stringify(data).replace(/</g, '\\u003c');
  const element = json && `<script type="application/json" id="${pageDataElementId}">${json}</script>`;
  if (content) {
    // Painted before any script is fetched (ADR 0063): the entry and the files to preload are named for a small
    // script that fetches them once the page is on the screen.
    const entry = entryScript.exec(html)?.[1];
    if (entry) {
      const preloaded = [...html.matchAll(modulePreload)].map((match) => match[1] as string);
      html = html.replace(entryScript, '').replace(modulePreload, '');
      const named = [entry, ...preloaded, ...preloads].join(' ');
      links = `<meta name="${appScriptsMetaName}" content="${named}"><script type="module" src="${afterFirstPaintScript}"></script>`;
    }
    if (element) {
      const waitForContent = `<link rel="expect" href="#${pageDataElementId}" blocking="render">`;
      return html
        .replace('<div id="root"></div>', () => `<div id="root">${content}</div>${element}`)
        .replace('</head>', () => `${links}${waitForContent}</head>`);
    }
    html = html.replace('<div id="root"></div>', () => `<div id="root">${content}</div>`);
  }
  // A function, not a string: `$&`, `$'` and the like in the data (a product named by the owner) stay as they are.
  return html.replace('</head>', () => `${links}${element ?? ''}</head>`);
}
