/**
 * Orders, for both sides (docs/product.md §8): the delivery address and its rules, the statuses and the moves
 * between them, order numbers, and the shapes the API sends.
 */
import './zod-config';
import { z } from 'zod';
import { limits } from './limits';
import { pageFields } from './paging';
import { card } from './payment/card';
import { settingsMethods } from './payment/payment-methods';
import type { OrderMoney } from './pricing';
import { roles } from './roles';
import { settings } from './settings';
import { noControlCharacters } from './text';

// ---------------------------------------------------------------------------------------------------------
// The delivery address

/** Where the shop ships: ISO 3166-1 codes of the inhabited countries and territories. */
export const countryCodes =
  'AD AE AF AG AI AL AM AO AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GT GU GW GY HK HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'.split(
    ' ',
  ) as [string, ...string[]];
export const defaultCountry = 'US';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const countryNames = new Map<string, string>();
/** A country's English name, e.g. "United States" for US. */
export function countryName(code: string): string {
  let name = countryNames.get(code);
  if (name === undefined) {
    name = regionNames.of(code) ?? code;
    countryNames.set(code, name);
  }
  return name;
}

/** Each field of the delivery address: its label, whether it is required, and its longest value. */
export const addressFields = {
  fullName: { label: 'Full name', required: true, max: 100 },
  line1: { label: 'Address line 1', required: true, max: 100 },
  line2: { label: 'Address line 2 (optional)', required: false, max: 100 },
  city: { label: 'City', required: true, max: 60 },
  region: { label: 'State or region', required: true, max: 60 },
  postalCode: { label: 'Postal code', required: true, max: 16 },
  country: { label: 'Country', required: true, max: 2 },
  phone: { label: 'Phone (optional)', required: false, max: 30 },
} as const;
export type AddressField = keyof typeof addressFields;

/** The name of a field in messages: its label without "(optional)". */
function nameOf(field: AddressField): string {
  return addressFields[field].label.replace(' (optional)', '');
}

function text(field: AddressField) {
  const { required, max } = addressFields[field];
  const name = nameOf(field);
  const schema = z
    .string({ error: `${name} must be text.` })
    .trim()
    .max(max, `${name} must be at most ${max} characters.`)
    .regex(noControlCharacters, `${name} must be on one line, without control characters.`);
  return required ? schema.min(1, `${name} is required.`) : schema;
}

/** An optional field may be left out of a request; it is then empty. */
function optionalText(field: AddressField) {
  return text(field).default('');
}

export const addressSchema = z.strictObject({
  fullName: text('fullName'),
  line1: text('line1'),
  line2: optionalText('line2'),
  city: text('city'),
  region: text('region'),
  postalCode: text('postalCode').regex(
    /^[\p{L}\p{N}][\p{L}\p{N} -]*$|^$/u,
    'Postal code may have only letters, digits, spaces and hyphens.',
  ),
  country: z.enum(countryCodes, { error: 'Choose a country from the list.' }),
  phone: text('phone')
    .regex(/^[0-9+()./ -]*$/, 'Phone may have only digits, spaces and + ( ) - . /')
    .default(''),
});
export type Address = z.infer<typeof addressSchema>;

export const emptyAddress: Address = {
  fullName: '',
  line1: '',
  line2: '',
  city: '',
  region: '',
  postalCode: '',
  country: defaultCountry,
  phone: '',
};

/** The address as lines, for a page, an e-mail or a spreadsheet. */
export function addressLines(address: Address): string[] {
  return [
    address.fullName,
    address.line1,
    address.line2,
    `${address.city}, ${address.region} ${address.postalCode}`,
    countryName(address.country),
    address.phone ? `Phone: ${address.phone}` : '',
  ].filter(Boolean);
}

// ---------------------------------------------------------------------------------------------------------
// Statuses and moves

export const orderStatuses = ['placed', 'paid', 'shipped', 'cancelled'] as const;
export type OrderStatus = (typeof orderStatuses)[number];

export const statusLabels: Record<OrderStatus, string> = {
  placed: 'Placed',
  paid: 'Paid',
  shipped: 'Shipped',
  cancelled: 'Cancelled',
};

/** Who moves orders: a rider, an owner, or the shop itself (Stripe's webhook, the end of an unpaid card order). */
export const actors = [...roles, 'shop'] as const;
export type Actor = (typeof actors)[number];

/**
 * Every allowed move (docs/product.md §8, §14); `shipped` and `cancelled` are final. `card`: only for a card order
 * (true) or only for the others (false); a card order is marked paid by Stripe's webhook alone.
 */
export const orderMoves = [
  { from: 'placed', to: 'paid', by: ['owner'], card: false },
  { from: 'placed', to: 'paid', by: ['shop'], card: true },
  { from: 'paid', to: 'shipped', by: ['owner'] },
  { from: 'placed', to: 'cancelled', by: ['rider', 'owner', 'shop'] },
  { from: 'paid', to: 'cancelled', by: ['owner'] },
] as const satisfies ReadonlyArray<{ from: OrderStatus; to: OrderStatus; by: readonly Actor[]; card?: boolean }>;

/** The moves `actor` may make from `status`, for an order paid by `paymentMethod`. */
export function movesFrom(status: OrderStatus, actor: Actor, paymentMethod: string): OrderStatus[] {
  const isCard = paymentMethod === card.id;
  return orderMoves
    .filter(
      (m) => m.from === status && (m.by as readonly Actor[]).includes(actor) && (!('card' in m) || m.card === isCard),
    )
    .map((m) => m.to);
}

export function canMove(from: OrderStatus, to: OrderStatus, actor: Actor, paymentMethod: string): boolean {
  return movesFrom(from, actor, paymentMethod).includes(to);
}

// ---------------------------------------------------------------------------------------------------------
// Order numbers

const { prefix } = settings.orderNumber;

export function formatOrderNumber(n: number): string {
  return `${prefix}${n}`;
}

/** The largest order number: the database keeps them as 32-bit integers. */
export const maxOrderNumber = 2_147_483_647;

/** A sequence number written in digits (`10001`), if it can be an order's; undefined for anything else. */
export function orderNumberOf(digits: string): number | undefined {
  if (!/^[1-9][0-9]{0,9}$/.test(digits)) return undefined;
  const number = Number(digits);
  return number <= maxOrderNumber ? number : undefined;
}

/** The sequence number of an order number such as `PF-10001`; undefined for anything else. */
export function parseOrderNumber(text: string): number | undefined {
  return text.startsWith(prefix) ? orderNumberOf(text.slice(prefix.length)) : undefined;
}

// ---------------------------------------------------------------------------------------------------------
// The API's shapes

const paymentMethodIds = settingsMethods.map((m) => m.id) as [string, ...string[]];

/** An owner's note (a tracking number) or reason (why an order was cancelled), on one line; may be empty. */
export const noteSchema = z
  .string({ error: 'The note must be text.' })
  .trim()
  .max(limits.noteMax, `The note must be at most ${limits.noteMax} characters.`)
  .regex(noControlCharacters, 'The note must be on one line, without control characters.');

export const placeOrderSchema = z.strictObject({
  address: addressSchema,
  paymentMethod: z.enum(paymentMethodIds, { error: 'Choose one of the payment methods offered.' }),
  /** Made once per checkout page: the same key never makes a second order. */
  idempotencyKey: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,64}$/, 'idempotencyKey must be 16 to 64 letters, digits, - or _.'),
  /** The cart rows the rider saw, by id. */
  cartItemIds: z.array(z.string().max(64)).max(limits.cartMaxRows),
  /**
   * The total the page showed, in cents: when the cart's is another (the owner changed a price meanwhile), the order
   * is refused with `order/cart-changed`. The checkout page always sends it.
   */
  totalCents: z.number().int().min(0).optional(),
});

export type PlaceOrder = z.infer<typeof placeOrderSchema>;

export const orderLineSchema = z.object({
  itemid: z.string(),
  name: z.string(),
  priceCents: z.number().int(),
  /** The size bought in; null for an order placed before the shop had sizes. */
  size: z.string().nullable(),
});
export type OrderLine = z.infer<typeof orderLineSchema>;

export const historyEntrySchema = z.object({
  status: z.enum(orderStatuses),
  /** ISO 8601. */
  at: z.string(),
  by: z.enum(actors),
  /** The owner's note (shipped) or the reason (cancelled). */
  note: z.string().nullable(),
  /** Only in the back office: the e-mail address of whoever made the change. */
  who: z.string().optional(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const orderSummarySchema = z.object({
  number: z.string(),
  /** ISO 8601. */
  placedAt: z.string(),
  status: z.enum(orderStatuses),
  itemCount: z.number().int(),
  totalCents: z.number().int(),
  /** The e-mail address the order was placed with. */
  email: z.string(),
});
export type OrderSummary = z.infer<typeof orderSummarySchema>;

/** An order's money (pricing.ts's OrderMoney): one value, whose fields the order carries. */
export const orderMoneySchema = z.object({
  subtotalCents: z.number().int(),
  shippingCents: z.number().int(),
  adjustments: z.array(z.object({ label: z.string(), amountCents: z.number().int() })).optional(),
  taxLines: z
    .array(
      z.object({
        name: z.string(),
        baseCents: z.number().int(),
        amountCents: z.number().int(),
        included: z.boolean(),
      }),
    )
    .optional(),
  totalCents: z.number().int(),
}) satisfies z.ZodType<OrderMoney>;

export const orderSchema = orderSummarySchema.extend({
  lines: z.array(orderLineSchema),
  ...orderMoneySchema.shape,
  address: addressSchema,
  paymentMethod: z.string(),
  /** A card order's payment (docs/product.md §14); null for the other methods. */
  card: z
    .object({
      /** Until when the rider may pay (ISO 8601); the shop cancels the order after it. */
      payBy: z.string(),
      /** Stripe's id of the payment, once paid. */
      paymentId: z.string().nullable(),
      /** Stripe's id of the refund, once refunded. */
      refundId: z.string().nullable(),
    })
    .nullable(),
  history: z.array(historyEntrySchema),
});
export type Order = z.infer<typeof orderSchema>;

export const orderPageSchema = z.object({
  orders: z.array(orderSummarySchema),
  ...pageFields,
});
export type OrderPage = z.infer<typeof orderPageSchema>;
