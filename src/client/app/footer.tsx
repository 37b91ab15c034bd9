import { shopAddressText } from '../../shared/address';
import { brand } from '../../shared/brand';
import { useShop } from '../lib/shop';

/** The shop's address and phone as its settings say, following the owner's saves on every open page. */
export function Footer() {
  const { shop, format } = useShop();
  return (
    <footer className="site-footer">
      <p>
        <span>{shopAddressText(shop.address, format.locale)}</span>
        <span>{shop.phone}</span>
        <span>
          © {new Date().getFullYear()} {shop.name}
        </span>
      </p>
      <p className="credits">{brand.pictureCredits}</p>
    </footer>
  );
}
