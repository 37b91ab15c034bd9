import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { CatalogueProduct } from '../../../shared/api';
import { formatCents } from '../../../shared/money';
import { pages } from '../../../shared/pages';
import { fewLeft } from '../../../shared/sizes';
import { Alert } from '../../components/alert';
import { useFormat } from '../../lib/shop';
import { BackInStock } from './back-in-stock';

interface ProductCardProps {
  product: CatalogueProduct;
  onAdd(product: CatalogueProduct, size: string): void;
  /** Why the last add of this product failed, if it did. */
  failure: string | null;
}

const chooseSize = 'Please choose a size.';

/** A product's page. */
export const productPath = (slug: string) => pages.product.path.replace(':slug', encodeURIComponent(slug));

/** A size as the list shows it: sold out, or only a few left, says so. */
function sizeOption({ size, stock }: CatalogueProduct['sizes'][number]): string {
  if (stock <= 0) return `${size} (sold out)`;
  return stock <= fewLeft ? `${size} (only ${stock} left)` : size;
}

/**
 * The size select with its stock and 'Add to Cart' (docs/product.md §12): the same on a product's card and on its page.
 */
export function Purchase({ product, onAdd, failure }: ProductCardProps) {
  const selectId = useId();
  const select = useRef<HTMLSelectElement>(null);
  const { sizes } = product;
  // One size needs no choosing; several start at 'Choose a size'.
  const [size, setSize] = useState('');
  const [missing, setMissing] = useState(false);
  // The owner may change the sizes while the page is open: one left is the one, a size renamed or removed is no choice.
  const chosen = sizes.length === 1 ? sizes[0] : sizes.find((s) => s.size === size);
  const inStock = sizes.some((s) => s.stock > 0);
  // A size sold out may be chosen: it offers 'Email me when it is back' (docs/product.md §27).
  const soldOut = chosen !== undefined && chosen.stock <= 0;

  // The chosen size sold out shows in its option; the note is for the product, or for a size nearly gone.
  let note: string | null = null;
  if (!inStock) note = 'Sold out';
  else if (chosen && chosen.stock > 0 && chosen.stock <= fewLeft) note = `Only ${chosen.stock} left`;

  function add() {
    if (!chosen) {
      setMissing(true);
      select.current?.focus();
      return;
    }
    onAdd(product, chosen.size);
  }

  return (
    <>
      {sizes.length > 1 && (
        <div className="field product-size">
          <label htmlFor={selectId}>Size</label>
          <select
            id={selectId}
            ref={select}
            value={size}
            aria-invalid={missing ? true : undefined}
            aria-describedby={missing ? `${selectId}-error` : undefined}
            onChange={(event) => {
              setSize(event.target.value);
              setMissing(false);
            }}
          >
            <option value="">Choose a size</option>
            {sizes.map((s) => (
              <option key={s.size} value={s.size}>
                {sizeOption(s)}
              </option>
            ))}
          </select>
          {missing && (
            <p id={`${selectId}-error`} className="field-error" role="alert">
              {chooseSize}
            </p>
          )}
        </div>
      )}
      {/* Polite: a rider who has chosen a size hears when its stock runs low or out. */}
      <p className="product-stock" aria-live="polite">
        {note}
      </p>
      {failure && <Alert kind="alert">{failure}</Alert>}
      <button
        type="button"
        className="button"
        aria-label={`Add to cart: ${product.name}`}
        disabled={!inStock || soldOut}
        onClick={add}
      >
        Add to cart
      </button>
      {soldOut && (
        <BackInStock key={chosen.size} itemid={product.itemid} size={chosen.size} path={productPath(product.slug)} />
      )}
    </>
  );
}

export function ProductCard({ product, onAdd, failure }: ProductCardProps) {
  const format = useFormat();
  const titleId = `product-${product.itemid}`;
  return (
    <article className="product card" aria-labelledby={titleId}>
      <a className="product-picture" href={product.largepic} target="_blank" rel="noopener">
        <img src={product.pic} alt={product.name} width={160} height={160} />
      </a>
      <div className="product-body">
        <p className="product-number">Item no. {product.itemid}</p>
        <h2 id={titleId} className="product-name">
          <a href={product.largepic} target="_blank" rel="noopener">
            {product.name}
          </a>
        </h2>
        <p className="product-price">{formatCents(product.priceCents, format)}</p>
        <p className="product-details">{product.details}</p>
        <p className="product-more">
          <Link to={productPath(product.slug)} aria-describedby={titleId}>
            Details
          </Link>
        </p>
        <Purchase product={product} onAdd={onAdd} failure={failure} />
      </div>
    </article>
  );
}
