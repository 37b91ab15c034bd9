import { pageTitle } from '../../shared/pages';
import { useShop } from '../lib/shop';

/** The page's document title, followed by the shop's name as its settings say. */
export function DocumentTitle({ page }: { page: string }) {
  return <title>{pageTitle(page, useShop().shop.name)}</title>;
}
