import { useEffect } from 'react';
import { liveStreams } from '../../shared/live-streams';
import { loadContract } from '../lib/api';
import { followEvents } from '../lib/live-events';

const accountStream = {
  ...liveStreams.account,
  schemas: async () => (await loadContract()).accountEventSchemas,
};

/**
 * While `follow` (a signed-in rider on a page that follows no live stream of its own: src/shared/pages.ts `stream`),
 * the page follows the account stream: an ended session goes to signup-login, a confirmed address reaches the page at
 * once (docs/product.md §15). One stream per tab either way: a browser opens at most six connections to the shop. The
 * session's events are handled by followEvents itself; `ready` needs nothing.
 */
export function useAccountStream(follow: boolean): void {
  useEffect(() => {
    if (!follow) return;
    return followEvents(accountStream, () => {});
  }, [follow]);
}
