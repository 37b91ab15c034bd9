import { type PageData, pageDataElementId } from '../../shared/page-data';

/**
 * What the server wrote into this page's HTML for its first view (src/server/page-data.ts, ADR 0028), or undefined
 * when it wrote nothing (Vite's development server). It came in the same answer as the page, from the same server,
 * so it is not checked against the API's contract: that check is for answers that may come from another version.
 * A page brought back by Back, Forward or a reopened tab may be the browser's old copy (it keeps one for history
 * however the page was marked), saying who was signed in then: its data is not used, and the page asks the server.
 */
function read(): PageData | undefined {
  // On the server (server-render.tsx) there is no page to read: each request's data is given to the stores there.
  if (typeof document === 'undefined') return undefined;
  const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  if (navigation?.type === 'back_forward') return undefined;
  const text = document.getElementById(pageDataElementId)?.textContent;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as PageData;
  } catch {
    return undefined;
  }
}

const pageData = read();

/** The shop's details as the server had them when it sent this page: undefined when it did not say. */
export const shopFromPage = pageData?.shop;

/** Who the server said is signed in when it sent this page: undefined when it did not say. */
export const sessionFromPage = pageData?.session;

/** What a page's HTML carries for that page alone (its first view), by name. */
type OwnData = Pick<PageData, 'catalogue' | 'product' | 'cart' | 'checkout'>;
const own: OwnData = { ...pageData };

/**
 * The page's own data from its HTML, once (the home page's products, a product page's product, the cart's rows, the
 * checkout's first quote): a later visit of the page, or a later quote, asks the server anew.
 */
export function takeFromPage<K extends keyof OwnData>(name: K): OwnData[K] {
  const taken = own[name];
  own[name] = undefined;
  return taken;
}

/** The places' lists the page's HTML came with (the checkout's countries and first subdivisions): for the page's life. */
export const placesFromPage = pageData?.places;
