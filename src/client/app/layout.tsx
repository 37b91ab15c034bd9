import { Suspense, useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router';
import { checkSession } from '../lib/session';
import { Banner } from './banner';
import { Footer } from './footer';
import { Header } from './header';
import { RouteErrorBoundary } from './route-error';
import { ScrollRestoration } from './scroll-restoration';

export function Layout() {
  const main = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  const firstPath = useRef(pathname);

  // On start the app asks the server who is signed in; until it answers, the stored hint stands in.
  useEffect(() => {
    void checkSession();
  }, []);

  // After an in-app navigation, keyboard and screen-reader users start again at the new page's content
  // rather than at a button that no longer exists.
  useEffect(() => {
    if (pathname === firstPath.current) return;
    firstPath.current = '';
    main.current?.focus({ preventScroll: true });
  }, [pathname]);

  // Navigations are transitions (BrowserRouter), so the old page stays until the next page's chunk is in;
  // the first page's chunk is in before the first render (main.tsx). The fallback is for anything else.
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <Banner />
      <main id="main" ref={main} tabIndex={-1}>
        <RouteErrorBoundary pathname={pathname}>
          <Suspense fallback={null}>
            <Outlet />
          </Suspense>
        </RouteErrorBoundary>
      </main>
      <Footer />
      <ScrollRestoration />
    </>
  );
}
