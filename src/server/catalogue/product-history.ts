import type { SizeGuide } from '../../shared/finding';
import { formatCents, type MoneyFormat } from '../../shared/money';
import type { NewProduct } from '../../shared/products';
import type { Owner } from '../auth/owner';
import type { UnitOfWork } from '../db/database';
import type { SizeStock } from '../stock/stock-store';
import type { Product } from './product';
import { type SizePair, stockToSet } from './size-edits';

// Each product's history (docs/product.md §13): what changed, when, by whom, in the owner's words.

/** The history keeps at most this many changes of a product for the owner's page (the newest). */
export const historyShown = 200;

/** A size guide as the database keeps it: JSON, or null. */
export const guideText = (guide: SizeGuide | null) => (guide === null ? null : JSON.stringify(guide));

/** The history's sentence for a size guide set to `after` from `before`; none when it is the same. */
export function describeGuide(before: SizeGuide | null, after: SizeGuide | null): string | undefined {
  if (guideText(before) === guideText(after)) return undefined;
  if (after === null) return 'Size guide removed';
  return before === null ? 'Size guide written' : 'Size guide changed';
}

/** One change to products, in each one's history (by the owner making it). */
export async function recordChange(uow: UnitOfWork, owner: Owner, itemid: string, what: readonly string[]) {
  const last = await uow.trx
    .selectFrom('product_change')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('itemid', '=', itemid)
    .executeTakeFirst();
  await uow.trx
    .insertInto('product_change')
    .values({
      itemid,
      seq: Number(last?.seq ?? 0) + 1,
      at: Date.now(),
      by_uid: owner.uid,
      by_email: owner.email,
      what: what.join('; '),
    })
    .execute();
}

/** A name as the history quotes it. */
export const quoted = (text: string) => `“${text}”`;

/** The history's sentences for an edit: one for each thing it changes; none when it changes nothing. */
export function describeEdit(
  before: Product,
  sizes: readonly SizeStock[],
  edit: NewProduct,
  pairs: SizePair[],
  format: MoneyFormat,
): string[] {
  const what: string[] = [];
  if (edit.name !== before.name) what.push(`Name ${quoted(before.name)} → ${quoted(edit.name)}`);
  if (edit.details !== before.details) what.push('Details changed');
  if (edit.priceCents !== before.priceCents) {
    what.push(`Price ${formatCents(before.priceCents, format)} → ${formatCents(edit.priceCents, format)}`);
  }
  if (edit.weightGrams !== undefined && edit.weightGrams !== before.weightGrams) {
    what.push(`Weight ${before.weightGrams} g → ${edit.weightGrams} g`);
  }
  if (edit.shown !== before.shown) what.push(edit.shown ? 'Shown on the home page' : 'Hidden from the home page');
  const guide = edit.sizeGuide === undefined ? undefined : describeGuide(before.sizeGuide, edit.sizeGuide);
  if (guide) what.push(guide);
  for (const { edit: size, old } of pairs) {
    if (!old) {
      what.push(`Size ${quoted(size.size)} added, ${size.stock} in stock`);
      continue;
    }
    if (old.size !== size.size) what.push(`Size ${quoted(old.size)} renamed ${quoted(size.size)}`);
    if (stockToSet(size, old) !== undefined) what.push(`Stock of ${quoted(size.size)} ${old.stock} → ${size.stock}`);
  }
  const kept = pairs.flatMap(({ old }) => (old ? [old.size] : []));
  for (const old of sizes) if (!kept.includes(old.size)) what.push(`Size ${quoted(old.size)} removed`);
  const keptBefore = sizes.map((s) => s.size).filter((name) => kept.includes(name));
  if (keptBefore.join('\u0001') !== kept.join('\u0001')) what.push('Sizes reordered');
  return what;
}
