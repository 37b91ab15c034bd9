import { createContext } from 'react';
import type { PageData } from '../../shared/page-data';

/**
 * The data a page is rendered with on the server (src/client/server-render.tsx), one request's: what the stores that
 * live outside React (session.ts, shop.ts) answer while the server renders, as their server snapshot. Undefined in
 * the browser, whose stores start from the same data in the page's HTML (page-data.ts), so that hydration finds
 * what the server wrote.
 */
export const ServedPage = createContext<PageData | undefined>(undefined);
