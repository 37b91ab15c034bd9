import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from './dialect';

/*
 * The arithmetic of the spread as it shipped with this migration (src/server/pricing/spread.ts on that day), copied so
 * that changing the live code never changes what this migration did (docs/decisions/0062-money-per-line.md).
 */

function spreadCents(amountCents: number, weights: readonly number[]): number[] {
  if (weights.length === 0) return [];
  const total = weights.reduce((sum, weight) => sum + BigInt(Math.max(0, weight)), 0n);
  const by = total === 0n ? weights.map(() => 1n) : weights.map((weight) => BigInt(Math.max(0, weight)));
  const whole = total === 0n ? BigInt(weights.length) : total;
  const amount = BigInt(amountCents);
  const floors = by.map((weight) => (amount * weight) / whole);
  const remainders = by.map((weight) => (amount * weight) % whole);
  let left = Number(amount - floors.reduce((sum, share) => sum + share, 0n));
  const order = by
    .map((_, index) => index)
    .sort((a, b) => {
      const ra = remainders[a] as bigint;
      const rb = remainders[b] as bigint;
      return ra === rb ? 0 : ra > rb ? -1 : 1;
    });
  const shares = floors.map(Number);
  for (const index of order) {
    if (left === 0) break;
    shares[index] = (shares[index] as number) + 1;
    left -= 1;
  }
  return shares;
}

/** An order's money as rows kept it then: the parts that matter here. */
interface OldMoney {
  shippingCents?: number;
  adjustments?: { amountCents: number }[];
  taxLines?: { baseCents: number; amountCents: number; included: boolean }[];
}

/**
 * Each line's discount and tax of an old order. Whether its shipping was taxed is not kept: it is read from the tax
 * lines' base (what was taxed: the base, and the tax too when contained), which is the goods after the discount, or
 * those and shipping. When the base is neither, the tax is spread over the lines alone.
 */
function sharesOf(money: OldMoney, lineCents: readonly number[]): { discountCents: number; taxCents: number }[] {
  const shippingCents = Math.max(0, Number(money.shippingCents ?? 0));
  const discountCents = Math.max(0, -(money.adjustments ?? []).reduce((sum, a) => sum + Number(a.amountCents), 0));
  const discounts = spreadCents(discountCents, lineCents);
  const nets = lineCents.map((cents, i) => Math.max(0, cents - (discounts[i] as number)));
  const goodsCents = nets.reduce((sum, cents) => sum + cents, 0);
  const taxLines = money.taxLines ?? [];
  const taxedCents = taxLines.map((line) =>
    line.included
      ? Number(line.baseCents) + taxLines.reduce((sum, l) => sum + Number(l.amountCents), 0)
      : Number(line.baseCents),
  )[0];
  const taxShipping = shippingCents > 0 && taxedCents === goodsCents + shippingCents;
  const weights = [...nets, taxShipping ? shippingCents : 0];
  const taxes = lineCents.map(() => 0);
  for (const line of taxLines) {
    const shares = spreadCents(Math.max(0, Number(line.amountCents)), weights);
    for (let i = 0; i < taxes.length; i++) taxes[i] = (taxes[i] as number) + (shares[i] as number);
  }
  return lineCents.map((_, i) => ({ discountCents: discounts[i] as number, taxCents: taxes[i] as number }));
}

/** Orders read at a time. */
const page = 500;

export const migration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    // Each line keeps its share of its order's discount and tax (docs/decisions/0062-money-per-line.md): 64-bit on
    // PostgreSQL, as every amount of money is since 0037.
    const type = dialect === 'postgres' ? 'bigint' : 'integer';
    await db.schema
      .alterTable('order_line')
      .addColumn('discount_cents', type, (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('order_line')
      .addColumn('tax_cents', type, (c) => c.notNull().defaultTo(0))
      .execute();
    // Orders placed before get the same spread once. Only those with a discount or a tax change a line: the others'
    // lines carry zero, the default.
    let after = -1;
    for (;;) {
      const { rows: orders } = await sql<{ number: number | string; money: string }>`
        select number, money from shop_order where number > ${after} order by number limit ${page}`.execute(db);
      if (orders.length === 0) break;
      after = Number(orders.at(-1)?.number);
      for (const order of orders) {
        const money = JSON.parse(order.money) as OldMoney;
        if ((money.adjustments ?? []).length === 0 && (money.taxLines ?? []).length === 0) continue;
        const { rows: lines } = await sql<{ position: number | string; price_cents: number | string }>`
          select position, price_cents from order_line where order_number = ${Number(order.number)}
          order by position`.execute(db);
        const shares = sharesOf(
          money,
          lines.map((line) => Number(line.price_cents)),
        );
        for (const [i, line] of lines.entries()) {
          const share = shares[i];
          if (!share || (share.discountCents === 0 && share.taxCents === 0)) continue;
          await sql`update order_line set discount_cents = ${share.discountCents}, tax_cents = ${share.taxCents}
            where order_number = ${Number(order.number)} and position = ${Number(line.position)}`.execute(db);
        }
      }
    }
  },
});
