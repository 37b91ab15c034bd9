import { lazy, Suspense } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';

// Loaded when first shown: the server that answered the 404 is there to send it.
const NotFound = lazy(async () => ({ default: (await import('../components/not-found')).NotFound }));

/**
 * Shown in place of a page that cannot be shown: the Snap! page when its loader found nothing there (an order
 * number that is not the rider's), otherwise a failure to load, e.g. a chunk of an older build that vanished after
 * a deploy, or a server that could not be reached.
 */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <Suspense fallback={null}>
        <NotFound />
      </Suspense>
    );
  }
  return (
    <section className="page" aria-labelledby="route-error-title">
      <h1 id="route-error-title">Something went wrong</h1>
      <p>This page could not be shown. Please reload the page to try again.</p>
    </section>
  );
}
