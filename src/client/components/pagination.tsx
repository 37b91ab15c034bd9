import { Link, useLocation } from 'react-router';

/** Previous and next links between the pages of a list; the other query parameters (filters) stay. */
export function Pagination({ page, pages }: { page: number; pages: number }) {
  const { pathname, search } = useLocation();
  if (pages <= 1) return null;
  const to = (target: number) => {
    const query = new URLSearchParams(search);
    query.set('page', String(target));
    return `${pathname}?${query}`;
  };
  return (
    <nav className="pagination" aria-label="Pages">
      {page > 1 && <Link to={to(page - 1)}>Previous page</Link>}
      <span>
        Page {page} of {pages}
      </span>
      {page < pages && <Link to={to(page + 1)}>Next page</Link>}
    </nav>
  );
}
