import { z } from 'zod';
import type { Address } from '../../shared/address';
import { type DocumentKind, documentKinds } from '../../shared/invoices';
import { type Order, type OrderLine, orderLineSchema, orderMoneySchema } from '../../shared/orders';
import { findPaymentMethod } from '../../shared/payment/payment-methods';
import type { OrderMoney } from '../../shared/pricing';
import { moneyOf } from '../pricing/pricing';
import type { LegalDetails } from './legal-details';

/**
 * What an invoice or a credit note states, as it was when issued (docs/product.md §20): kept whole in its row, never
 * changed, and the only thing its PDF is made from. A credit note states its invoice's lines and money as negative
 * amounts.
 */
export interface InvoiceRecord {
  kind: DocumentKind;
  number: string;
  /** ISO 8601. */
  issuedAt: string;
  /** A credit note's: the invoice it cancels; null for an invoice. */
  cancels: string | null;
  /** The order's number (PF-...). */
  order: string;
  seller: LegalDetails;
  buyer: { email: string; address: Address };
  lines: OrderLine[];
  money: OrderMoney;
  /** The payment method's name ('Card', 'Bank transfer'). */
  paymentMethod: string;
  /** How its amounts and dates read: the shop's currency, locale and time zone when it was issued. */
  format: { locale: string; timeZone: string };
}

const recordSchema = z.object({
  kind: z.enum(documentKinds),
  number: z.string(),
  issuedAt: z.string(),
  cancels: z.string().nullable(),
  order: z.string(),
  seller: z.object({
    name: z.string(),
    legalName: z.string(),
    address: z.string(),
    phone: z.string(),
    taxId: z.string().nullable(),
  }),
  buyer: z.object({
    email: z.string(),
    address: z.object({
      fullName: z.string(),
      line1: z.string(),
      line2: z.string(),
      city: z.string(),
      region: z.string(),
      postalCode: z.string(),
      country: z.string(),
      phone: z.string(),
    }),
  }),
  lines: z.array(orderLineSchema),
  // A record issued before an order's money held its currency and sums kept the currency in `format`: both are read.
  money: orderMoneySchema.partial({ currency: true, taxCents: true, netCents: true }),
  paymentMethod: z.string(),
  format: z.object({ currency: z.string().optional(), locale: z.string(), timeZone: z.string() }),
});

/**
 * A row's record; one that is not what this version wrote is a failure to read it, never a wrong figure. A record
 * issued before an order's money held its currency and sums reads as one issued now: its currency was its format's,
 * its sums are made as the pricing makes every order's (src/server/pricing/pricing.ts).
 */
export function readRecord(json: string): InvoiceRecord {
  const { money, format, ...rest } = recordSchema.parse(JSON.parse(json));
  const { taxCents: _tax, netCents: _net, currency = format.currency ?? 'USD', ...parts } = money;
  return {
    ...rest,
    money: moneyOf({ ...parts, currency }),
    format: { locale: format.locale, timeZone: format.timeZone },
  };
}

/** Cents the other way round; zero stays a plain zero. */
const negative = (cents: number) => 0 - cents;

/** An order's money as a credit note states it: every amount negative, the rest as the invoice stated it. */
function negated(money: OrderMoney): OrderMoney {
  return {
    ...money,
    subtotalCents: negative(money.subtotalCents),
    shippingCents: negative(money.shippingCents),
    ...(money.adjustments
      ? { adjustments: money.adjustments.map((a) => ({ ...a, amountCents: negative(a.amountCents) })) }
      : {}),
    ...(money.taxLines
      ? {
          taxLines: money.taxLines.map((t) => ({
            ...t,
            baseCents: negative(t.baseCents),
            amountCents: negative(t.amountCents),
          })),
        }
      : {}),
    taxCents: negative(money.taxCents),
    netCents: negative(money.netCents),
    totalCents: negative(money.totalCents),
  };
}

/** The invoice of an order as it is now. */
export function invoiceOf(
  order: Order,
  { number, issuedAt, seller, format }: Pick<InvoiceRecord, 'number' | 'issuedAt' | 'seller' | 'format'>,
): InvoiceRecord {
  return {
    kind: 'invoice',
    number,
    issuedAt,
    cancels: null,
    order: order.number,
    seller,
    buyer: { email: order.email, address: order.address },
    lines: order.lines,
    // The order's money whole, as the order's page and e-mails read it (its tax note among it).
    money: order.money,
    paymentMethod: findPaymentMethod(order.paymentMethod)?.label ?? order.paymentMethod,
    format,
  };
}

/**
 * The credit note that cancels `invoice`: what the invoice stated (its buyer, payment and currency), every amount
 * negative, under its own number and date, issued by the shop as it is now.
 */
export function creditNoteOf(
  invoice: InvoiceRecord,
  { number, issuedAt, seller }: Pick<InvoiceRecord, 'number' | 'issuedAt' | 'seller'>,
): InvoiceRecord {
  return {
    ...invoice,
    kind: 'credit-note',
    number,
    issuedAt,
    seller,
    cancels: invoice.number,
    lines: invoice.lines.map((line) => ({ ...line, priceCents: negative(line.priceCents) })),
    money: negated(invoice.money),
  };
}
