import { brand } from '../brand';
import { formatCents } from '../money';
import type { PaymentMethod } from './payment-method';

/**
 * The rider pays by card on Stripe's hosted page (docs/product.md §14): no card number ever reaches the shop. Offered
 * only when the server has Stripe's keys (the server says so: GET /api/payment-methods).
 */
export const card = {
  id: 'card',
  label: 'Card',
  summary: () => "Pay by card on Stripe's secure page. Your card number never reaches us.",
  howToPay: ({ number, totalCents }) => ({
    intro:
      `Pay ${formatCents(totalCents, brand)} by card on Stripe's secure page. If you left it before paying, open your order ` +
      `and choose 'Pay now'.`,
    details: [
      ['Order number', number],
      ['Amount', formatCents(totalCents, brand)],
    ],
  }),
} as const satisfies PaymentMethod;
