import type {
  BreadcrumbList,
  Graph,
  ListItem,
  Offer,
  Organization,
  Product,
  SearchAction,
  WebSite,
  WithActionConstraints,
} from 'schema-dts';
import type { ProductDetails } from '../../shared/finding';
import type { ShopDetails } from '../../shared/settings';
import { absolute, decimalOf, homeUrl, origin, productUrl, skuOf } from './public-urls';

// The JSON-LD of the public pages (docs/product.md §24), typed by schema.org's own types (schema-dts, which Google
// keeps): a field schema.org does not have, or a value of the wrong type, does not compile.

/** The search a `SearchAction` names: home's search field's query parameter. */
const searchTerm = 'search_term_string';

function organizationId(publicUrl: string): string {
  return `${origin(publicUrl)}/#organization`;
}

/** Home's: the shop as an `Organization`, and the site as a `WebSite` whose `SearchAction` lands on home's search. */
export function homeGraph(publicUrl: string, shop: ShopDetails): Graph {
  const { address } = shop;
  const organization: Organization = {
    '@type': 'Organization',
    '@id': organizationId(publicUrl),
    name: shop.name,
    legalName: shop.legalName,
    url: homeUrl(publicUrl),
    email: shop.email,
    telephone: shop.phone,
    address: {
      '@type': 'PostalAddress',
      streetAddress: [address.line1, address.line2].filter(Boolean).join(', '),
      addressLocality: address.city,
      addressRegion: address.region,
      postalCode: address.postalCode,
      addressCountry: address.country,
    },
  };
  // `query-input` names the part of the address the searched words fill (schema.org's action constraints).
  const search: WithActionConstraints<SearchAction> = {
    '@type': 'SearchAction',
    target: { '@type': 'EntryPoint', urlTemplate: `${homeUrl(publicUrl)}?q={${searchTerm}}` },
    'query-input': `required name=${searchTerm}`,
  };
  const site: WebSite = {
    '@type': 'WebSite',
    '@id': `${origin(publicUrl)}/#website`,
    name: shop.name,
    url: homeUrl(publicUrl),
    publisher: { '@id': organizationId(publicUrl) },
    potentialAction: search,
  };
  return { '@context': 'https://schema.org', '@graph': [organization, site] };
}

/**
 * A product's page's: the `Product` with one `Offer` per size (its price, the shop's currency, in stock or not, and
 * the size's sku), and the `BreadcrumbList` Home, its first category (when it has one), the product.
 */
export function productGraph(
  publicUrl: string,
  product: ProductDetails,
  shop: { name: string; currency: string },
  category: { slug: string; name: string } | undefined,
): Graph {
  const url = productUrl(publicUrl, product.slug);
  const offers: Offer[] = product.sizes.map(({ size, stock }) => ({
    '@type': 'Offer',
    sku: skuOf(product.itemid, size),
    name: size,
    price: decimalOf(product.priceCents),
    priceCurrency: shop.currency,
    availability: stock > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
    itemCondition: 'https://schema.org/NewCondition',
    url,
    seller: { '@id': organizationId(publicUrl) },
  }));
  const item: Product = {
    '@type': 'Product',
    '@id': `${url}#product`,
    name: product.name,
    description: product.details,
    sku: product.itemid,
    url,
    image: product.pictures.map((picture) => absolute(publicUrl, picture.largepic)),
    brand: { '@type': 'Brand', name: shop.name },
    offers,
  };
  const steps: { name: string; url: string }[] = [
    { name: 'Home', url: homeUrl(publicUrl) },
    ...(category ? [{ name: category.name, url: homeUrl(publicUrl, { category: category.slug }) }] : []),
    { name: product.name, url },
  ];
  const breadcrumbs: BreadcrumbList = {
    '@type': 'BreadcrumbList',
    itemListElement: steps.map(
      (step, index): ListItem => ({ '@type': 'ListItem', position: index + 1, name: step.name, item: step.url }),
    ),
  };
  return { '@context': 'https://schema.org', '@graph': [item, breadcrumbs] };
}

/** The JSON-LD's element: `<` escaped, so that nothing in it (a product's name) can end the element. */
export function jsonLdElement(graph: Graph): string {
  return `<script type="application/ld+json">${JSON.stringify(graph).replace(/</g, '\\u003c')}</script>`;
}
