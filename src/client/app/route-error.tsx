import { isRouteErrorResponse, useRouteError } from 'react-router';
import { NotFound } from '../components/not-found';

/** Shown when a page cannot load, e.g. a chunk of an older build vanished after a deploy. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  return (
    <section className="page" aria-labelledby="route-error-title">
      <h1 id="route-error-title">Something went wrong</h1>
      <p>This page could not be shown. Please reload the page to try again.</p>
    </section>
  );
}
