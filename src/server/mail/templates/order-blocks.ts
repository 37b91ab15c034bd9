import { formatCents } from '../../../shared/money';
import { addressLines, type Order } from '../../../shared/orders';
import { itemWithSize } from '../../../shared/sizes';
import type { Block } from '../message';

/** The parts of an order that several e-mails show: what was bought and what it costs, and where it goes. */
export function orderBlocks(order: Order): Block[] {
  return [
    { facts: order.lines.map((line) => [itemWithSize(line.name, line.size), formatCents(line.priceCents)] as const) },
    {
      facts: [
        ['Subtotal', formatCents(order.subtotalCents)],
        ['Shipping', order.shippingCents === 0 ? 'Free' : formatCents(order.shippingCents)],
        ['Total', formatCents(order.totalCents)],
      ],
    },
    'Prices include any tax.',
    `Delivery address: ${addressLines(order.address).join(', ')}`,
  ];
}
