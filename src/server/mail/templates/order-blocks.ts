import { brand } from '../../../shared/brand';
import { formatCents } from '../../../shared/money';
import { addressLines, type Order } from '../../../shared/orders';
import { itemWithSize } from '../../../shared/sizes';
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
      facts: [
        ['Subtotal', formatCents(order.subtotalCents, brand)],
        ['Shipping', order.shippingCents === 0 ? 'Free' : formatCents(order.shippingCents, brand)],
        ['Total', formatCents(order.totalCents, brand)],
      ],
    },
    'Prices include any tax.',
    `Delivery address: ${addressLines(order.address).join(', ')}`,
  ];
}
