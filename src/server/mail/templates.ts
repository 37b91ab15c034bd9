import type { MailKind } from '../../shared/mail';
import { compose, type Letter, type Message, type Site } from './message';
import { backInStock } from './templates/back-in-stock';
import { confirmEmail } from './templates/confirm-email';
import { emailChanged } from './templates/email-changed';
import { orderCancelled } from './templates/order-cancelled';
import { orderConfirmation } from './templates/order-confirmation';
import { orderPaid } from './templates/order-paid';
import { orderShipped } from './templates/order-shipped';
import { passwordChanged } from './templates/password-changed';
import { passwordReset } from './templates/password-reset';
import { paymentReminder } from './templates/payment-reminder';
import { returnRefused } from './templates/return-refused';
import { returnRequested } from './templates/return-requested';
import { returnSettled } from './templates/return-settled';

/** Each kind of e-mail and its template (src/server/mail/templates/: the words, one file per e-mail). */
const templates = {
  'order-confirmation': orderConfirmation,
  'order-paid': orderPaid,
  'order-shipped': orderShipped,
  'order-cancelled': orderCancelled,
  'payment-reminder': paymentReminder,
  'password-reset': passwordReset,
  'password-changed': passwordChanged,
  'email-changed': emailChanged,
  'confirm-email': confirmEmail,
  'back-in-stock': backInStock,
  'return-requested': returnRequested,
  'return-refused': returnRefused,
  'return-settled': returnSettled,
} as const satisfies Record<MailKind, (data: never, site: Site) => Letter>;

/** What the template of `kind` needs. */
export type MailData<K extends MailKind> = Parameters<(typeof templates)[K]>[0];

/** Kinds whose body holds a secret (a single-use link): never shown in the back office, and cleared once sent. */
export const secretKinds: ReadonlySet<MailKind> = new Set<MailKind>(['password-reset', 'confirm-email']);

/**
 * Kinds anyone can have sent to any address (a reset link is asked for by address): /healthz does not count them, so
 * that it tells nobody whether an account exists. A link to confirm an address goes only to a sign-up's own address.
 */
export const askedByAnyoneKinds: ReadonlySet<MailKind> = new Set<MailKind>(['password-reset']);

export function render<K extends MailKind>(kind: K, data: MailData<K>, site: Site): Message {
  const template = templates[kind] as (data: MailData<K>, site: Site) => Letter;
  return compose(template(data, site), site);
}
