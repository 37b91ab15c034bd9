import { formatCents, type MoneyFormat } from '../money';
import { amountToPay, type PaymentMethod } from './payment-method';

/**
 * The least a card payment may be, in cents of the order's currency: Stripe refuses a charge of less than $0.50, and
 * 50 cents of the other currencies a shop may have is about as much (docs/product.md §14). An order that costs nothing
 * is paid as it is placed; one of 1 to 49 cents cannot be paid by card.
 */
export const cardMinimumCents = 50;

/** What a rider whose total is below `cardMinimumCents` is told, on the checkout page and by the refused order. */
export function cardMinimumMessage(format: MoneyFormat): string {
  return `A card payment must be at least ${formatCents(cardMinimumCents, format)}: please choose another way to pay.`;
}

/**
 * The rider pays by card on Stripe's hosted page (docs/product.md §14): no card number ever reaches the shop. Offered
 * only when the server has Stripe's keys (the server says so: GET /api/payment-methods).
 */
export const card = {
  id: 'card',
  label: 'Card',
  summary: () => "Pay by card on Stripe's secure page. Your card number never reaches us.",
  howToPay: ({ number, money }, { format }) => ({
    intro:
      `Pay ${amountToPay(money, format)} by card on Stripe's secure page. If you left it before paying, open your order ` +
      `and choose 'Pay now'.`,
    details: [
      ['Order number', number],
      ['Amount', amountToPay(money, format)],
    ],
  }),
} as const satisfies PaymentMethod;
