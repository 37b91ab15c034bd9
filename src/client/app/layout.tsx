import { useEffect, useLayoutEffect, useRef } from 'react';
import { Outlet, ScrollRestoration, useLocation, useMatches } from 'react-router';
import type { Page } from '../../shared/pages';
import { checkSession, useSession } from '../lib/session';
import AccountWatch from './account-watch';
import { Banner } from './banner';
import { Footer } from './footer';
import { Header } from './header';

export function Layout() {
  const { user } = useSession();
  const main = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  const shownPath = useRef(pathname);
  // A signed-in page without a live stream of its own follows the account stream (account-watch.tsx); each page's
  // route carries its entry of src/shared/pages.ts as its handle.
  const matches = useMatches();
  const follow = user !== null && !matches.some((match) => (match.handle as Page | undefined)?.stream);

  // On start the app asks the server who is signed in, unless the page's HTML has said (src/client/lib/page-data.ts).
  // A guarded page without a stored hint has asked already (its guard waits for the answer); otherwise the question
  // waits until the first page is on screen.
  useEffect(() => {
    void checkSession();
  }, []);

  // After an in-app navigation, keyboard and screen-reader users start again at the new page's content
  // rather than at a button that no longer exists. A layout effect, so that focus moves in the same commit
  // as the page: nobody (a person or a test) sees the new page with focus still elsewhere.
  useLayoutEffect(() => {
    if (pathname === shownPath.current) return;
    shownPath.current = pathname;
    main.current?.focus({ preventScroll: true });
  }, [pathname]);

  // The router shows a page only once its module and its guard are done: the old page stays until the new one is
  // ready.
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <Banner />
      {user && (follow || !user.emailConfirmed) && <AccountWatch follow={follow} />}
      <main id="main" ref={main} tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
      <ScrollRestoration />
    </>
  );
}
