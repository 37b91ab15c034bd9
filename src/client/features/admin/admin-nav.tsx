import { Link, useLocation } from 'react-router';
import { pages } from '../../../shared/pages';

/** The back office's own navigation: its lists, the one shown marked as the current page. */
export function AdminNav() {
  const { pathname } = useLocation();
  const current = (path: string) => (pathname === path ? 'page' : undefined);
  return (
    <nav className="admin-nav" aria-label="Back office">
      <Link to={pages.admin.path} aria-current={current(pages.admin.path)}>
        Orders
      </Link>
      <Link to={pages.adminReturns.path} aria-current={current(pages.adminReturns.path)}>
        Returns
      </Link>
      <Link to={pages.adminInvoices.path} aria-current={current(pages.adminInvoices.path)}>
        Invoices
      </Link>
      <Link to={pages.adminReports.path} aria-current={current(pages.adminReports.path)}>
        Reports
      </Link>
      <Link to={pages.adminProducts.path} aria-current={current(pages.adminProducts.path)}>
        Products
      </Link>
      <Link to={pages.adminCategories.path} aria-current={current(pages.adminCategories.path)}>
        Categories
      </Link>
      <Link to={pages.adminDiscounts.path} aria-current={current(pages.adminDiscounts.path)}>
        Discounts
      </Link>
      <Link to={pages.adminOutbox.path} aria-current={current(pages.adminOutbox.path)}>
        Outbox
      </Link>
      <Link to={pages.adminPayments.path} aria-current={current(pages.adminPayments.path)}>
        Payments
      </Link>
      <Link to={pages.adminSettings.path} aria-current={current(pages.adminSettings.path)}>
        Settings
      </Link>
    </nav>
  );
}
