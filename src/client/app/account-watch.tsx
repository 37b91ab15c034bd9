import { ConfirmBanner } from './confirm-banner';
import { useAccountStream } from './use-account-stream';

/**
 * What the layout adds for a signed-in rider beyond the page: the account stream on a page without a stream of its
 * own, and the banner while the address is not confirmed. A module loaded only when one of them is needed, so that a
 * confirmed rider's first load of a page with its own stream (/home) carries neither.
 */
export default function AccountWatch({ follow }: { follow: boolean }) {
  useAccountStream(follow);
  return <ConfirmBanner />;
}
