import type { Product } from '../../../shared/catalogue';
import { formatCents } from '../../../shared/money';

interface ProductCardProps {
  product: Product;
  onAdd(product: Product): void;
}

export function ProductCard({ product, onAdd }: ProductCardProps) {
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
        <p className="product-price">{formatCents(product.priceCents)}</p>
        <p className="product-details">{product.details}</p>
        <button
          type="button"
          className="button"
          aria-label={`Add to cart: ${product.name}`}
          onClick={() => onAdd(product)}
        >
          Add to cart
        </button>
      </div>
    </article>
  );
}
