import { Link } from 'react-router';
import { notFoundTitle, pages } from '../../shared/pages';
import { DocumentTitle } from './document-title';

export function NotFound() {
  return (
    <section className="page not-found" aria-labelledby="not-found-title">
      <DocumentTitle page={notFoundTitle} />
      <h1 id="not-found-title">Snap!</h1>
      <p className="not-found-code">404 – Page Not Found</p>
      <p>Sorry. An error has occurred, and the requested page cannot be found.</p>
      <p>
        <Link className="button" to={pages.home.path}>
          Home
        </Link>
      </p>
    </section>
  );
}
