import { Navigate, Outlet } from 'react-router';
import { pages } from '../../shared/pages';
import { useSession } from '../lib/session';

/** Guarded pages render at once on a stored hint; without a user they go to signup-login. */
export function RequireSession() {
  const { user } = useSession();
  if (!user) return <Navigate to={pages.signupLogin.path} replace />;
  return <Outlet />;
}
