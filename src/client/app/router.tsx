import {
  createBrowserRouter,
  type DataRouter,
  type LoaderFunction,
  type LoaderFunctionArgs,
  type RouteObject,
  redirect,
} from 'react-router';
import type { Access } from '../../shared/access';
import { type PageName, pages } from '../../shared/pages';
import { ApiError } from '../lib/api';
import { notFound } from '../lib/not-found';
import { checkSession, currentRole, currentUser, subscribeToSession } from '../lib/session';
import { openToVisitors } from '../lib/shop';
import { appRoutes } from './app-routes';
import { type PageModule, type PageModules, pageModuleFile } from './page-module';

// Each page module becomes a chunk of its own, loaded when its page is first visited. The back office's pages are
// listed apart (owner-pages.ts), in a chunk fetched with the first of them: what every rider's first visit loads does
// not grow with the back office.
const pageModules: PageModules = import.meta.glob<PageModule>(['../features/*/*-page.tsx', '!../features/admin/**']);
const ownerPageModules = async (): Promise<PageModules> => (await import('./owner-pages')).ownerPageModules;

function findModule(modules: PageModules, name: PageName, folder: string): () => Promise<PageModule> {
  const file = `/${pageModuleFile(name)}`;
  const found = Object.keys(modules).filter((path) => path.endsWith(file));
  const load = found.length === 1 && found[0] ? modules[found[0]] : undefined;
  if (!load) throw new Error(`Not one features/${folder}${file}`);
  return load;
}

function pageModule(name: PageName): () => Promise<PageModule> {
  if (pages[name].access !== 'owner') return findModule(pageModules, name, '*');
  return async () => findModule(await ownerPageModules(), name, 'admin')();
}

/**
 * The guard of a page for signed-in riders, and of the shop's pages (`shop`), which a visitor sees too when the shop
 * is open to everyone (docs/product.md §23). With a stored hint the page renders at once (the server's check runs
 * meanwhile and signs out on a 401, which runs the guards again); without one it waits for the server's answer, so a
 * rider whose session cookie is valid reaches the page asked for.
 */
async function requireSession(access: Access = 'rider'): Promise<void> {
  if (!currentUser()) await checkSession();
  if (currentUser()) return;
  if (access === 'shop' && (await openToVisitors())) return;
  throw redirect(pages.signupLogin.path);
}

/**
 * The guard of an owner's page: a signed-in rider whose role, as the server says it now, is owner. Anyone else sees
 * the Snap! page, so that the back office does not even show that it exists.
 */
async function requireOwner(): Promise<void> {
  await requireSession();
  await checkSession();
  if (currentRole() !== 'owner') throw notFound();
}

/**
 * A page's loader: its guard first, then the module's own loader. A 401 on the way means the session ended: the
 * rider goes to signup-login, as the guard would have sent them; a 403 (a role taken away meanwhile), the Snap! page.
 */
function pageLoader(access: Access, load: () => Promise<PageModule>): LoaderFunction {
  return async (args: LoaderFunctionArgs) => {
    if (access === 'shop' || access === 'rider') await requireSession(access);
    else if (access === 'owner') await requireOwner();
    const { loader } = await load();
    if (!loader) return null;
    try {
      return await loader(args);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) throw redirect(pages.signupLogin.path);
      if (error instanceof ApiError && error.code === 'auth/forbidden') throw notFound();
      throw error;
    }
  };
}

/** The routes, built from the table of pages (src/shared/pages.ts): its paths, and its access rules. */
function pageRoutes(): RouteObject[] {
  return (Object.keys(pages) as PageName[]).map((name) => {
    const page = pages[name];
    const load = pageModule(name);
    return {
      path: page.path,
      loader: pageLoader(page.access, load),
      lazy: async () => ({ Component: (await load()).default }),
      handle: page,
    };
  });
}

export function createAppRouter(): DataRouter {
  const router = createBrowserRouter(appRoutes(pageRoutes()));
  // A sign-out from anywhere (log-out, a 401, the live cart's signed-out event) runs the guards again: a guarded
  // page goes to signup-login as the header changes; a visitor's page too when the shop has just closed to visitors.
  subscribeToSession(() => {
    if (!currentUser()) void router.revalidate();
  });
  return router;
}
