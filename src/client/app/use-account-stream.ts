import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { findPage } from '../../shared/pages';
import { loadContract } from '../lib/api';
import { followEvents } from '../lib/live-events';
import { useSession } from '../lib/session';

async function accountStream() {
  const { endpoints, accountEventSchemas } = await loadContract();
  return { path: endpoints.accountStream.path, schemas: accountEventSchemas };
}

/**
 * While a rider is signed in on a page that follows no live stream of its own (src/shared/pages.ts `stream`), the
 * page follows the account stream: an ended session goes to signup-login, a confirmed address reaches the page at once
 * (docs/product.md §15). One stream per tab either way: a browser opens at most six connections to the shop.
 */
export function useAccountStream(): void {
  const { user } = useSession();
  const { pathname } = useLocation();
  const follow = user !== null && !findPage(pathname)?.stream;
  useEffect(() => {
    if (!follow) return;
    // The session's events are handled by followEvents itself; `ready` needs nothing.
    return followEvents(accountStream, () => {});
  }, [follow]);
}
