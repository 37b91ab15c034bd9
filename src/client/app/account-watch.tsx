import { ConfirmBanner } from './confirm-banner';
import { useAccountStream } from './use-account-stream';

/**
 * What the layout adds for a signed-in rider beyond the page: the account stream on a page without a stream of its
 * own, and the banner while the address is not confirmed. Part of the first paint: a banner that arrived later would
 * push the page down (a layout shift; ADR 0028).
 */
export default function AccountWatch({ follow }: { follow: boolean }) {
  useAccountStream(follow);
  return <ConfirmBanner />;
}
