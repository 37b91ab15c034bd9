import { addressLines } from '../../../shared/address';
import { formatCents } from '../../../shared/money';
import { deliveryText, type Order } from '../../../shared/orders';
import { moneyRows, taxNoteOf } from '../../../shared/pricing';
import { itemWithSize } from '../../../shared/sizes';
import { regionName } from '../../places/places';
import type { Block, Site } from '../message';

/**
 * The parts of an order that several e-mails show: what was bought and what it costs (in its own currency, written as
 * the shop writes amounts), and where it goes.
 */
export function orderBlocks(order: Order, { shop }: Site): Block[] {
  const { money } = order;
  const { locale } = shop.format;
  return [
    {
      facts: order.lines.map(
        (line) =>
          [
            itemWithSize(line.name, line.size),
            formatCents(line.priceCents, { currency: money.currency, locale }),
          ] as const,
      ),
    },
    {
      facts: moneyRows(money, locale).map((row) => [row.label, row.amount] as const),
    },
    ...(taxNoteOf(money) ? [taxNoteOf(money) as string] : []),
    `Delivery: ${deliveryText(order)}`,
    `Delivery address: ${addressLines(order.address, regionName).join(', ')}`,
  ];
}
