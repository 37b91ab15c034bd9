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

/**
 * Links to the newer and the older orders beside a page of a list read by key (src/shared/orders.ts `orderKeys`); the
 * other query parameters (filters) stay.
 */
export function OrderPagination({ newer, older }: { newer: number | null; older: number | null }) {
  const { pathname, search } = useLocation();
  if (newer === null && older === null) return null;
  const to = (key: 'before' | 'after', number: number) => {
    const query = new URLSearchParams(search);
    query.delete('before');
    query.delete('after');
    query.set(key, String(number));
    return `${pathname}?${query}`;
  };
  return (
    <nav className="pagination" aria-label="Pages">
      {newer !== null && <Link to={to('after', newer)}>Newer orders</Link>}
      {older !== null && <Link to={to('before', older)}>Older orders</Link>}
    </nav>
  );
}
