/**
 * The contract's cart, checkout and orders area (src/shared/api.ts): the rider's cart, the checkout's quote and the
 * places an address may be in, placing and paying an order, its documents, and Stripe's webhook.
 */
import './zod-config';
import { z } from 'zod';
import { addressFields, defaultCountry } from './address';
import type { Endpoint } from './api-endpoint';
import { deliveries } from './delivery';
import { documentPaths } from './invoices';
import { liveStreams } from './live-streams';
import { oneKey, orderKeys, orderMoneySchema, orderPageSchema, orderSchema, placeOrderSchema } from './orders';
import { orderReturnsSchema, returnRequestSchema, returnSchema } from './returns';
import { publicShopSchema } from './settings';
import type { ShippingOption } from './shipping';
import { addToCartSchema } from './validation';

export const cartItemSchema = z.object({
  id: z.string(),
  /** The rider whose row it is; null in a visitor's cart (docs/product.md §23). */
  uid: z.string().nullable(),
  itemid: z.string(),
  name: z.string(),
  /** Integer cents. */
  priceCents: z.number().int(),
  details: z.string(),
  /** The size chosen; null for a row added before the shop had sizes (checkout asks for one). */
  size: z.string().nullable(),
  /** False once the owner hid the product or removed the size: 'No longer available', and checkout refuses it. */
  available: z.boolean(),
});
export type CartItem = z.infer<typeof cartItemSchema>;

/**
 * The choices a quote is for: the delivery (shipping when left out), the address's country, region (ISO 3166-1
 * alpha-2 and 3166-2, or the region as typed: the shop's country and none when left out) and postal code (for the tax
 * rates of a postal code prefix; none when left out) and the delivery method (the zone's first).
 */
export const quoteQuery = z.strictObject({
  delivery: z.enum(deliveries, { error: 'delivery must be shipping or collection.' }).default('shipping'),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, 'country must be a code such as US.')
    .default(defaultCountry),
  region: z.string().max(addressFields.region.max).default(''),
  postalCode: z.string().max(addressFields.postalCode.max).default(''),
  method: z.string().max(64).optional(),
  /** 'Apply': the quote with this discount code, or why it cannot be used (`discount/...`). */
  discountCode: z.string().max(64).optional(),
});
export type QuoteQuery = z.infer<typeof quoteQuery>;

/** A delivery method as the checkout lists it (src/shared/shipping.ts's ShippingOption). */
export const shippingOptionSchema = z.object({
  id: z.string(),
  name: z.string(),
  cents: z.number().int(),
  estimate: z.string(),
}) satisfies z.ZodType<ShippingOption>;

/** A country or one of its subdivisions (ISO 3166): its code and English name. */
export const placeSchema = z.object({ code: z.string(), name: z.string() });
export type Place = z.infer<typeof placeSchema>;

/**
 * The checkout's quote: the rider's cart rows and what the shop charges for them. The page shows it and sends its
 * total back with the order; `place` refuses another (`order/cart-changed`).
 */
export const quoteSchema = z.object({
  items: z.array(cartItemSchema),
  /** With the chosen method's price; the goods alone when there is none. */
  money: orderMoneySchema,
  shipping: z.object({
    /** The methods for the address (or collection), in the owner's order, each priced for this cart. */
    options: z.array(shippingOptionSchema),
    /** The id of the method priced in `money`; null when there is none, and `refusal` says why. */
    chosen: z.string().nullable(),
    refusal: z.string().optional(),
  }),
});
export type Quote = z.infer<typeof quoteSchema>;

/** An order, as the rider and the owners see it. */
export const orderReply = z.object({ order: orderSchema });

/** The endpoints of the cart, the checkout and the rider's orders, in the order of the contract. */
export const orderEndpoints = {
  cart: { method: 'GET', path: '/api/cart', reply: z.object({ items: z.array(cartItemSchema) }) },
  addToCart: { method: 'POST', path: '/api/cart', body: addToCartSchema, reply: z.object({ item: cartItemSchema }) },
  removeFromCart: { method: 'DELETE', path: '/api/cart/:id' },
  /** Server-Sent Events: `cartEventSchemas`. */
  cartStream: { method: 'GET', path: liveStreams.cart.path },
  /** The checkout's quote: the rider's cart and what it costs (`place` charges exactly its total). */
  quote: { method: 'GET', path: '/api/checkout/quote', query: quoteQuery, reply: quoteSchema },
  /** The payment methods this shop offers at checkout, by id, in order (Card only with Stripe's keys). */
  paymentMethods: { method: 'GET', path: '/api/payment-methods', reply: z.object({ methods: z.array(z.string()) }) },
  /** The countries an address may be in (ISO 3166-1), by name: the address form's and the shipping zones' list. */
  countries: { method: 'GET', path: '/api/places', reply: z.object({ countries: z.array(placeSchema) }) },
  /** A country's subdivisions (ISO 3166-2, 'US-FL'), by name: its state field's list; 404 places/unknown-country. */
  regions: { method: 'GET', path: '/api/places/:country', reply: z.object({ regions: z.array(placeSchema) }) },
  /** What every page shows of the shop's settings (the footer's address and phone): for anyone, signed in or not. */
  shop: { method: 'GET', path: '/api/shop', reply: publicShopSchema },
  /**
   * For a card order, `payUrl`: Stripe's page to pay on; `payError` instead when Stripe could not be reached (the
   * order is placed all the same; its page offers 'Pay now').
   */
  placeOrder: {
    method: 'POST',
    path: '/api/orders',
    body: placeOrderSchema,
    reply: orderReply.extend({ payUrl: z.string().optional(), payError: z.string().optional() }),
  },
  orders: { method: 'GET', path: '/api/orders', query: oneKey(orderKeys), reply: orderPageSchema },
  /** Server-Sent Events: `orderEventSchemas`. */
  ordersStream: { method: 'GET', path: liveStreams.orders.path },
  order: { method: 'GET', path: '/api/orders/:number', reply: orderReply },
  cancelOrder: { method: 'POST', path: '/api/orders/:number/cancel', reply: orderReply },
  /** 'Pay now': a new Stripe Checkout Session for a card order still waiting for its payment; `url` is its page. */
  payOrder: { method: 'POST', path: '/api/orders/:number/pay', reply: z.object({ url: z.string() }) },
  /** `application/pdf`: the order's invoice, once paid (404 invoice/not-found before, or for another rider's order). */
  orderInvoice: { method: 'GET', path: documentPaths.orderInvoice },
  /** `application/pdf`: the credit note of an order cancelled after it was invoiced. */
  orderCreditNote: { method: 'GET', path: documentPaths.orderCreditNote },
  /** `application/pdf`: one of the order's documents by its number (a return's credit note: `Return.refund`). */
  orderDocument: { method: 'GET', path: documentPaths.orderDocument },
  /** The order's returns, and what may still be returned and until when (docs/product.md §25). */
  orderReturns: { method: 'GET', path: '/api/orders/:number/returns', reply: orderReturnsSchema },
  /** 'Return items': 201 with the new return; the exchange's sizes are held from now. */
  requestReturn: {
    method: 'POST',
    path: '/api/orders/:number/returns',
    body: returnRequestSchema,
    reply: z.object({ return: returnSchema }),
  },
  /** Stripe's webhook: signed by Stripe (Stripe-Signature), not by a browser; answers 204 once acted on. */
  stripeWebhook: { method: 'POST', path: '/api/payments/stripe/webhook' },
} as const satisfies Record<string, Endpoint>;
