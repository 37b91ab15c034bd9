/**
 * The shop's commercial settings, in one place a shop owner may edit (docs/product.md §8): what shipping
 * costs, which payment methods are offered and the details they need. The shop's identity (name, address,
 * currency) is in brand.ts. Amounts are integer cents of brand.currency.
 */
export const settings = {
  shipping: {
    /** A flat fee per order... */
    flatCents: 2500,
    /** ...unless the subtotal is at least this. */
    freeFromCents: 50000,
  },
  /**
   * The payment methods offered at checkout, in this order: ids of src/shared/payment/payment-methods.ts. 'card' is
   * offered only on a server with Stripe's keys (README, "Card payments").
   */
  paymentMethods: ['bank-transfer', 'collection', 'card'],
  /** The shop's bank account: fictitious, like the address in brand.ts; put the real one here. */
  bankTransfer: {
    /** Days the rider has to pay. */
    payWithinDays: 7,
    accountName: 'Piaffe Saddlery LLC',
    bankName: 'Wellington Community Bank',
    routingNumber: '000000000',
    accountNumber: '0000 1234 5678',
  },
  /** The home page says 'Only N left' for a size with this many or fewer on the shelf. */
  fewLeft: 3,
  /** Order numbers read `PF-10001`, `PF-10002`, ... */
  orderNumber: { prefix: 'PF-', first: 10001 },
} as const;
