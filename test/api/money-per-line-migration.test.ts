import { afterAll, expect, it } from 'vitest';
import type { TaxSettings } from '../../src/shared/settings';
import { confirmedRider } from '../support/client';
import { createDiscount } from '../support/discounts';
import { startTestServer } from '../support/server';
import { serverWithOwner } from '../support/shop-with-owner';
import { createDatabase, type TestDatabase, undoMoneyPerLine } from '../support/test-database';

/**
 * Migration 0040 on a shop that has orders (docs/decisions/0062-money-per-line.md): orders with and without a code,
 * with tax added or included, on shipping or not, are placed with this version, the shop is taken back to lines without
 * their shares, and started again. Every order's lines add up to its discount and tax to the cent, as when it was placed.
 */
let database: TestDatabase | undefined;
afterAll(async () => {
  await database?.drop();
});

interface LineRow {
  order_number: number | string;
  position: number | string;
  price_cents: number | string;
  discount_cents: number | string;
  tax_cents: number | string;
}

interface Money {
  shippingCents: number;
  adjustments?: { amountCents: number }[];
  taxLines?: { amountCents: number }[];
}

/** Every order line's shares, as numbers, in order. */
async function linesOf(db: TestDatabase) {
  const rows = await db.query<LineRow>(
    'select order_number, position, price_cents, discount_cents, tax_cents from order_line order by order_number, position',
  );
  return rows.map((row) => ({
    order: Number(row.order_number),
    position: Number(row.position),
    priceCents: Number(row.price_cents),
    discountCents: Number(row.discount_cents),
    taxCents: Number(row.tax_cents),
  }));
}

function tax(pricesIncludeTax: boolean, taxShipping: boolean): TaxSettings {
  return {
    pricesIncludeTax,
    taxShipping,
    rates: [
      { name: 'State tax', country: 'US', region: 'US-FL', postalPrefix: null, rate: 6000 },
      { name: 'County tax', country: 'US', region: 'US-FL', postalPrefix: null, rate: 1000 },
    ],
  };
}

it("spreads every older order's discount and tax over its lines once, adding up to the order's to the cent", {
  timeout: 60_000,
}, async () => {
  database = await createDatabase();
  const { server: first, owner } = await serverWithOwner({ DATABASE_URL: database.url });
  const percent = (await createDiscount(owner, { gives: { kind: 'percent', percent: 15 } })).code;
  const amount = (await createDiscount(owner, { gives: { kind: 'amount', amountCents: 1001 } })).code;
  const rider = await confirmedRider(first.url);
  const withCode = async (code: string | undefined, ...itemids: string[]) => {
    for (const itemid of itemids) await rider.add(itemid);
    const reply = await rider.placeOrder(code === undefined ? {} : { discountCode: code });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  };
  const setTax = async (settingsTax: TaxSettings) => {
    const { settings } = (await owner.json('GET', '/api/admin/settings')).body;
    expect((await owner.json('PUT', '/api/admin/settings', { ...settings, tax: settingsTax })).status).toBe(200);
  };
  // No tax: nothing, then a code over three lines, one of them twice.
  await withCode(undefined, '3');
  await withCode(percent, '3', '5', '5');
  // Tax added, shipping taxed (free from $500.00 of goods, so paid on one line alone); then tax included, shipping not.
  await setTax(tax(false, true));
  await withCode(amount, '4', '7', '6');
  await withCode(amount, '6');
  await withCode(undefined, '8');
  await setTax(tax(true, false));
  await withCode(percent, '7', '8', '4');
  await withCode(amount, '6');
  const placed = await linesOf(database);
  await first.stop();

  // As the live pricing spread them: the lines add up to the discount; to the tax with shipping's part.
  const orders = await database.query<{ number: number | string; money: string }>(
    'select number, money from shop_order order by number',
  );
  expect(orders).toHaveLength(7);
  const shippingTax: number[] = [];
  for (const { number, money: text } of orders) {
    const money = JSON.parse(text) as Money;
    const lines = placed.filter((line) => line.order === Number(number));
    const discount = 0 - (money.adjustments ?? []).reduce((sum, a) => sum + a.amountCents, 0);
    const taxCents = (money.taxLines ?? []).reduce((sum, line) => sum + line.amountCents, 0);
    expect(lines.reduce((sum, line) => sum + line.discountCents, 0)).toBe(discount);
    shippingTax.push(taxCents - lines.reduce((sum, line) => sum + line.taxCents, 0));
  }
  // Shipping carries tax only in the orders placed while it was taxed and not free (the fourth and fifth).
  expect(shippingTax.map((cents) => cents > 0)).toEqual([false, false, false, true, true, false, false]);
  expect(placed.some((line) => line.discountCents > 0 && line.taxCents > 0)).toBe(true);

  await undoMoneyPerLine(database);
  const after = await startTestServer({ DATABASE_URL: database.url });
  await after.stop();
  // The migration's spread is the live one, line for line: so every old order's lines add up as above.
  expect(await linesOf(database)).toEqual(placed);
});
