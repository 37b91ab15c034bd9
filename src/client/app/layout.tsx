import { useEffect, useLayoutEffect, useRef } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { checkSession } from '../lib/session';
import { Banner } from './banner';
import { ConfirmBanner } from './confirm-banner';
import { Footer } from './footer';
import { Header } from './header';
import { useAccountStream } from './use-account-stream';

export function Layout() {
  const main = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  const shownPath = useRef(pathname);

  // On start the app asks the server who is signed in. A guarded page without a stored hint has asked already (its
  // guard waits for the answer); otherwise the question waits until the first page is on screen.
  useEffect(() => {
    void checkSession();
  }, []);
  useAccountStream();

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
      <ConfirmBanner />
      <main id="main" ref={main} tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
      <ScrollRestoration />
    </>
  );
}
