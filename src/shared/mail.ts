/** The e-mails the shop sends (docs/product.md §9), by kind, with the name the back office shows for each. */
export const mailKinds = {
  'order-confirmation': 'Order confirmation',
  'order-paid': 'Order paid',
  'order-shipped': 'Order shipped',
  'order-cancelled': 'Order cancelled',
  'payment-reminder': 'Payment reminder',
  'password-reset': 'Password reset link',
  'password-changed': 'Password changed',
  'email-changed': 'E-mail address changed',
  'confirm-email': 'Address confirmation link',
  'back-in-stock': 'Back in stock',
  'return-requested': 'Return requested',
  'return-refused': 'Return refused',
  'return-settled': 'Return refunded or exchanged',
} as const;
export type MailKind = keyof typeof mailKinds;

/** Where an e-mail of the outbox is: waiting to be sent (or retried), sent, or failed after the last retry. */
export const outboxStates = ['waiting', 'sent', 'failed'] as const;
export type OutboxState = (typeof outboxStates)[number];
