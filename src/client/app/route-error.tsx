/** Shown in place of a page that cannot be shown, e.g. when a chunk of an older build vanished after a deploy. */
export function RouteError() {
  return (
    <section className="page" aria-labelledby="route-error-title">
      <h1 id="route-error-title">Something went wrong</h1>
      <p>This page could not be shown. Please reload the page to try again.</p>
    </section>
  );
}
