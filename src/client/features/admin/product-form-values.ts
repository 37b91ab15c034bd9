import { formatAmount, type MoneyFormat, parseCents } from '../../../shared/money';
import { type AdminProduct, type NewProduct, newProductSchema } from '../../../shared/products';
import { guideText, parseGuide } from './size-guide-text';

/** One size as the owner's form holds it: text as typed, and what the product had, for a size it already has. */
export interface SizeRow {
  /** Tells the rows apart while they are renamed, moved and removed. */
  key: string;
  size: string;
  stock: string;
  /** The size's name in the product as loaded; none for a size added in this form. */
  was?: string;
  /** The stock the form showed for it, so that a stock the owner did not touch keeps what orders took meanwhile. */
  stockShown?: number;
}

/** The owner's form as typed: the price in dollars, the weight and the stock as text. */
export interface ProductValues {
  name: string;
  details: string;
  price: string;
  weight: string;
  shown: boolean;
  sizes: SizeRow[];
  /** The slugs of the categories ticked. */
  categories: string[];
  /** Its own size guide as typed (size-guide-text.ts); empty for its first category's. */
  guide: string;
}

let rowCount = 0;
export function rowKey(): string {
  rowCount += 1;
  return `size-row-${rowCount}`;
}

/** The form's values for a product; a new product starts empty, hidden, with one size to fill in. */
export function valuesOf(product: AdminProduct | undefined, format: MoneyFormat): ProductValues {
  if (!product) {
    return {
      name: '',
      details: '',
      price: '',
      weight: '0',
      shown: false,
      sizes: [{ key: rowKey(), size: '', stock: '0' }],
      categories: [],
      guide: '',
    };
  }
  return {
    name: product.name,
    details: product.details,
    price: formatAmount(product.priceCents, format),
    weight: String(product.weightGrams),
    shown: product.shown,
    sizes: product.sizes.map(({ size, stock }) => ({
      key: rowKey(),
      size,
      stock: String(stock),
      was: size,
      stockShown: stock,
    })),
    categories: product.categories,
    guide: guideText(product.sizeGuide),
  };
}

/** A count as typed ("12", "1,000"); NaN for anything that is not a number, undefined for nothing at all. */
function countOf(text: string): number | undefined {
  const typed = text.trim().replaceAll(',', '');
  if (typed === '') return undefined;
  return /^-?\d+(\.\d+)?$/.test(typed) ? Number(typed) : Number.NaN;
}

/**
 * The key a problem is shown under: `name`, `details`, `priceCents`, `weightGrams`, `shown`, `sizes` (the list as a whole), and
 * `sizes.<row key>.size` or `.stock` for a row, so that a problem stays with its row when rows move.
 */
export function problemKey(path: readonly PropertyKey[], rows: readonly SizeRow[]): string {
  const [first, index, field] = path;
  if (first === 'sizes' && index !== undefined) {
    const row = rows[Number(index)];
    return row ? `sizes.${row.key}.${String(field ?? '')}` : 'sizes';
  }
  return String(first ?? '');
}

/** The fields the form shows problems next to; a problem elsewhere is told above the button. */
export function isShownField(key: string, rows: readonly SizeRow[]): boolean {
  if (['name', 'details', 'priceCents', 'weightGrams', 'sizes', 'sizeGuide'].includes(key)) return true;
  return rows.some((row) => key === `sizes.${row.key}.size` || key === `sizes.${row.key}.stock`);
}

/**
 * Checks the form by the shared rules (src/shared/products.ts): what to send when it passes, and the first problem
 * of each field otherwise. A size the product had says its old name (`was`) when renamed, and the stock shown.
 */
export function checkProduct(
  values: ProductValues,
  withCategories: boolean,
  format: MoneyFormat,
): { input?: NewProduct; problems: Record<string, string> } {
  const guide = parseGuide(values.guide);
  const result = newProductSchema.safeParse({
    name: values.name,
    details: values.details,
    priceCents: parseCents(values.price, format),
    // The form always says a weight: an empty one is a problem, not one left out.
    weightGrams: countOf(values.weight) ?? Number.NaN,
    shown: values.shown,
    sizes: values.sizes.map((row) => ({
      size: row.size,
      stock: countOf(row.stock),
      ...(row.was !== undefined && row.was !== row.size.trim() ? { was: row.was } : {}),
      ...(row.stockShown !== undefined ? { stockShown: row.stockShown } : {}),
    })),
    ...(withCategories ? { categories: values.categories } : {}),
    ...('guide' in guide ? { sizeGuide: guide.guide } : {}),
  });
  if (result.success && 'guide' in guide) return { input: result.data, problems: {} };
  const problems: Record<string, string> = 'problem' in guide ? { sizeGuide: guide.problem } : {};
  if (result.success) return { problems };
  for (const issue of result.error.issues) problems[problemKey(issue.path, values.sizes)] ??= issue.message;
  return { problems };
}
