import { addressLines } from '../../../shared/address';
import { brand } from '../../../shared/brand';
import { formatCents } from '../../../shared/money';
import { deliveryText, type Order } from '../../../shared/orders';
import { moneyRows, taxNoteOf } from '../../../shared/pricing';
import { itemWithSize } from '../../../shared/sizes';
import { regionName } from '../../places/places';
import type { Block } from '../message';

/** The parts of an order that several e-mails show: what was bought and what it costs, and where it goes. */
export function orderBlocks(order: Order): Block[] {
  return [
    {
      facts: order.lines.map(
        (line) => [itemWithSize(line.name, line.size), formatCents(line.priceCents, brand)] as const,
      ),
    },
    {
      facts: moneyRows(order, brand).map((row) => [row.label, row.amount] as const),
    },
    ...(taxNoteOf(order) ? [taxNoteOf(order) as string] : []),
    `Delivery: ${deliveryText(order)}`,
    `Delivery address: ${addressLines(order.address, regionName).join(', ')}`,
  ];
}
