import { Link, useLocation, useNavigate } from 'react-router';
import { pageRoutes } from '../../shared/api';
import { brand } from '../../shared/brand';
import { endServerSession } from '../lib/log-out';
import { useSession } from '../lib/session';

function pageLink(pathname: string) {
  return pathname === pageRoutes.home || pathname === pageRoutes.manageAccount
    ? { to: pageRoutes.cart, label: 'view cart' }
    : { to: pageRoutes.home, label: 'view items' };
}

export function Header() {
  const { user, signedOut } = useSession();
  const { pathname } = useLocation();
  const navigate = useNavigate();

  async function logOut() {
    await endServerSession();
    signedOut();
    navigate(pageRoutes.signupLogin);
  }

  const link = pageLink(pathname);
  return (
    <header className="site-header">
      <div className="brand">
        <Link to={pageRoutes.home} className="brand-title">
          {brand.title}
        </Link>
        <p className="brand-tagline">{brand.tagline}</p>
      </div>
      <nav aria-label="Main">
        {user ? (
          <ul className="nav-list">
            <li>
              <Link className="nav-link" to={link.to}>
                {link.label}
              </Link>
            </li>
            <li>
              <Link className="nav-link" to={pageRoutes.manageAccount}>
                Account
              </Link>
            </li>
            <li>
              <button type="button" className="nav-link" onClick={logOut}>
                Log out
              </button>
            </li>
          </ul>
        ) : (
          <ul className="nav-list">
            <li>
              <Link className="nav-link" to={pageRoutes.signupLogin}>
                Log in
              </Link>
            </li>
          </ul>
        )}
      </nav>
    </header>
  );
}
