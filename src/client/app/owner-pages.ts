import type { PageModule, PageModules } from './page-module';

/**
 * The back office's page modules (src/client/features/admin/*-page.tsx), for the router (router.tsx): each a chunk of
 * its own, as every page is, but listed here rather than in the app's first chunk, which every rider loads.
 */
export const ownerPageModules: PageModules = import.meta.glob<PageModule>('../features/admin/*-page.tsx');
