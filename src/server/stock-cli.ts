// `npm run stock -- list` and `npm run stock -- set <itemid|all> <size|all> <count>`: the stock of each size
// (docs/product.md §12), against the database DATABASE_URL names (the same settings as the server), for a count of
// the whole shop at once (the back office sets one product's). On PostgreSQL every server's open pages follow a change
// at once; on SQLite, at their next load.
import { productLimits } from '../shared/limits';
import { nudgeCarts } from './cart/cart-nudge';
import { createCatalogueStore } from './catalogue/catalogue-store';
import { fail, runOnShopDatabase, shopOutbox } from './cli';
import { createSettingsStore } from './settings/settings-store';
import { createStockStore } from './stock/stock-store';

const usage = 'Usage: npm run stock -- list | set <itemid|all> <size|all> <count>';

const [command, ...args] = process.argv.slice(2);
if (!(command === 'list' && args.length === 0) && !(command === 'set' && args.length === 3)) fail(usage, 2);
const [itemid, size, count] = args as [string, string, string];
const stock = Number(count);
if (command === 'set') {
  // The owner's form's limit (docs/product.md §13): a count it would refuse would leave the product unsaveable there.
  if (!/^[0-9]+$/.test(count ?? '') || stock > productLimits.stockMax)
    fail(`The count must be a whole number from 0 to ${productLimits.stockMax.toLocaleString('en-US')}.`);
}

await runOnShopDatabase(async (db, { config }) => {
  const store = createStockStore(db, shopOutbox(db, config));
  const products = await createCatalogueStore(db, store, createSettingsStore(db), nudgeCarts).products();
  const findProduct = (id: string) => products.find((p) => p.itemid === id);
  if (command === 'set' && itemid !== 'all' && !findProduct(itemid)) {
    fail(`There is no product with the item number ${itemid}.`);
  }
  if (command === 'list') {
    const rows = await store.all();
    const name = (id: string) => findProduct(id)?.name ?? id;
    const width = Math.max(...products.map((p) => p.name.length));
    return rows
      .map((row) => `${row.itemid}  ${name(row.itemid).padEnd(width)}  ${row.size.padEnd(9)}  ${row.stock}`)
      .join('\n');
  }
  const set = await store.set(stock, {
    ...(itemid === 'all' ? {} : { itemid }),
    ...(size === 'all' ? {} : { size }),
  });
  if (set === 0) {
    if (itemid === 'all') fail(`No product comes in size ${size}.`);
    const sizes = (await store.sizesOf(itemid)).map((s) => s.size).join(', ');
    fail(`${findProduct(itemid)?.name} comes in no size ${size}: its sizes are ${sizes}.`);
  }
  return `Set ${set} ${set === 1 ? 'size' : 'sizes'} to ${stock} in stock.`;
});
