import { Link, useLocation, useNavigate } from 'react-router';
import { brand } from '../../shared/brand';
import { pages } from '../../shared/pages';
import { endSession, useSession } from '../lib/session';
import { useShop } from '../lib/shop';

function pageLink(pathname: string) {
  return pathname === pages.home.path || pathname === pages.manageAccount.path
    ? { to: pages.cart.path, label: 'view cart' }
    : { to: pages.home.path, label: 'view items' };
}

export function Header() {
  const { user, role } = useSession();
  const { shop, access } = useShop();
  const { pathname } = useLocation();
  const navigate = useNavigate();

  async function logOut() {
    await endSession();
    navigate(pages.signupLogin.path);
  }

  const link = pageLink(pathname);
  return (
    <header className="site-header">
      <div className="brand">
        <Link to={pages.home.path} className="brand-title">
          {shop.name}
        </Link>
        <p className="brand-tagline">{brand.tagline}</p>
      </div>
      <nav aria-label="Main">
        <ul className="nav-list">
          {(user || access.openTo === 'everyone') && (
            // A visitor of a shop open to everyone browses and fills a cart too (docs/product.md §23).
            <li>
              <Link className="nav-link" to={link.to}>
                {link.label}
              </Link>
            </li>
          )}
          {user ? (
            <>
              <li>
                <Link className="nav-link" to={pages.manageAccount.path}>
                  Account
                </Link>
              </li>
              {role === 'owner' && (
                <li>
                  <Link className="nav-link" to={pages.admin.path}>
                    Admin
                  </Link>
                </li>
              )}
              <li>
                <button type="button" className="nav-link" onClick={logOut}>
                  Log out
                </button>
              </li>
            </>
          ) : (
            <li>
              <Link className="nav-link" to={pages.signupLogin.path}>
                Log in
              </Link>
            </li>
          )}
        </ul>
      </nav>
    </header>
  );
}
