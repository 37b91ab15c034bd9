import { type ComponentType, use } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { pages as pageTable } from '../../shared/pages';
import { NotFound } from '../components/not-found';
import { readHint } from '../lib/session-hint';
import { Layout } from './layout';
import { RequireSession } from './require-session';

/** A page in its own chunk, loaded on first use. */
interface PageChunk {
  component?: ComponentType;
  /** Starts loading the chunk (once); resolves when it is in. */
  load(): Promise<unknown>;
}

function pageChunk(importPage: () => Promise<ComponentType>): PageChunk {
  let loading: Promise<unknown> | undefined;
  const chunk: PageChunk = {
    load: () => {
      loading ??= importPage().then((component) => {
        chunk.component = component;
      });
      return loading;
    },
  };
  return chunk;
}

/**
 * Unlike React.lazy, which suspends once even when its chunk is already in, a loaded page renders at once: the
 * first page (loaded before the first render, main.tsx) appears whole in one paint, never as a shell with an
 * empty main area first.
 */
function Page({ chunk }: { chunk: PageChunk }) {
  if (!chunk.component) use(chunk.load());
  const Component = chunk.component as ComponentType;
  return <Component />;
}

// React Router's declarative mode: the data router (createBrowserRouter) would add about 17 KB gzip to every
// first load, for loaders, actions and fetchers we do not use.
const pages: Record<string, PageChunk> = {
  [pageTable.signupLogin.path]: pageChunk(
    async () => (await import('../features/auth/signup-login-page')).SignupLoginPage,
  ),
  [pageTable.home.path]: pageChunk(async () => (await import('../features/catalog/home-page')).HomePage),
  [pageTable.cart.path]: pageChunk(async () => (await import('../features/cart/cart-page')).CartPage),
  [pageTable.manageAccount.path]: pageChunk(
    async () => (await import('../features/account/manage-account-page')).ManageAccountPage,
  ),
};
const guardedPaths = new Set<string>([pageTable.home.path, pageTable.cart.path, pageTable.manageAccount.path]);

function chunkOf(path: string): PageChunk {
  const chunk = pages[path];
  if (!chunk) throw new Error(`No page for ${path}.`);
  return chunk;
}

/**
 * Loads the chunk of the page this visit starts on (signup-login when a guarded page will send the visitor
 * there), so that the first render shows it whole. Never fails: a failed chunk is shown by the error boundary.
 */
export function loadFirstPage(pathname: string): Promise<void> {
  const first = guardedPaths.has(pathname) && !readHint() ? pages[pageTable.signupLogin.path] : pages[pathname];
  return (first?.load() ?? Promise.resolve()).then(
    () => {},
    () => {},
  );
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<Navigate to={pageTable.home.path} replace />} />
        <Route path={pageTable.signupLogin.path} element={<Page chunk={chunkOf(pageTable.signupLogin.path)} />} />
        <Route element={<RequireSession />}>
          <Route path={pageTable.home.path} element={<Page chunk={chunkOf(pageTable.home.path)} />} />
          <Route path={pageTable.cart.path} element={<Page chunk={chunkOf(pageTable.cart.path)} />} />
          <Route path={pageTable.manageAccount.path} element={<Page chunk={chunkOf(pageTable.manageAccount.path)} />} />
        </Route>
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
