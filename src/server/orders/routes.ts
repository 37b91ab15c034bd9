import { Hono } from 'hono';
import { endpoints } from '../../shared/api';
import { brand } from '../../shared/brand';
import type { ErrorCode } from '../../shared/errors';
import { formatOrderNumber, type OrderStatus, parseOrderNumber, statusLabels } from '../../shared/orders';
import { card } from '../../shared/payment/card';
import { notShippedMessage, shippingChangedMessage } from '../../shared/shipping';
import type { AppEnv } from '../app-env';
import type { Sessions } from '../auth/sessions';
import { HttpError } from '../http/errors';
import { readJson, readQuery, readText } from '../http/input';
import { type LiveStreams, sseFrame } from '../http/live-streams';
import type { CardPayments } from '../payments/card-payments';
import type { CardCheckout } from '../payments/card-sessions';
import type { SettingsStore } from '../settings/settings-store';
import type { CancelResult } from './order-moves';
import type { PlaceResult } from './order-placing';
import type { OrderStore } from './order-store';
import { ordersTopic } from './order-topic';

type Refusal = Extract<PlaceResult, { ok: false }>;

const placeRefusals: Record<
  Exclude<
    Refusal['reason'],
    'too-many' | 'sold-out' | 'size-missing' | 'unavailable' | 'not-shipped' | 'shipping-changed'
  >,
  ErrorCode
> = {
  'cart-empty': 'order/cart-empty',
  'no-such-method': 'order/invalid-shipping-method',
  'cart-changed': 'order/cart-changed',
  'no-user': 'auth/unauthenticated',
  'email-not-confirmed': 'auth/email-not-confirmed',
};

function placeRefusal(result: Refusal): HttpError {
  if (result.reason === 'too-many') {
    return new HttpError('order/too-many', undefined, { 'Retry-After': String(result.retryAfter) });
  }
  if (result.reason === 'not-shipped') return new HttpError('order/not-shipped', notShippedMessage(result.country));
  if (result.reason === 'shipping-changed') {
    return new HttpError('order/shipping-changed', shippingChangedMessage(result.option, brand));
  }
  if (result.reason === 'sold-out' || result.reason === 'size-missing' || result.reason === 'unavailable') {
    return new HttpError(`order/${result.reason}`, undefined, {}, { rows: result.rows });
  }
  return new HttpError(placeRefusals[result.reason]);
}

/** The order number of the route's `:number`; an unreadable one is an order that does not exist. */
export function orderNumberParam(text: string): number {
  const number = parseOrderNumber(text);
  if (number === undefined) throw new HttpError('order/not-found');
  return number;
}

/** Why a card payment's step was refused, as our error. */
const paymentRefusals = {
  'not-found': 'order/not-found',
  'not-awaiting': 'payment/not-awaiting',
  'payment-busy': 'payment/busy',
  'payment-in-progress': 'payment/in-progress',
  'payments-unavailable': 'server/payments-unavailable',
} as const satisfies Record<Extract<CardCheckout, { ok: false }>['reason'], ErrorCode>;

function checkoutRefusal(result: Extract<CardCheckout, { ok: false }>): HttpError {
  return new HttpError(paymentRefusals[result.reason]);
}

/** Why a move (a cancel: with its payment's step) was refused, as our error (with the order's status now, where that helps). */
export function moveRefusal(result: Extract<CancelResult, { ok: false }>): HttpError {
  const now = (status: OrderStatus | undefined) => (status ? ` It is ${statusLabels[status].toLowerCase()} now.` : '');
  if (result.reason === 'refund-failed') {
    return new HttpError('payment/refund-failed', `Stripe refused the refund: ${result.detail} The order stays paid.`);
  }
  if (
    result.reason === 'not-found' ||
    result.reason === 'payment-busy' ||
    result.reason === 'payment-in-progress' ||
    result.reason === 'payments-unavailable'
  ) {
    return new HttpError(paymentRefusals[result.reason]);
  }
  if (result.reason === 'busy') {
    return new HttpError(
      'payment/busy',
      'A refund of this order has been asked of Stripe, so it cannot ship. Cancel it again to finish the refund.',
    );
  }
  if (result.reason === 'status-changed') {
    return new HttpError('order/status-changed', `Someone else has just changed this order.${now(result.status)}`);
  }
  return new HttpError('order/invalid-transition', `This order cannot be changed that way.${now(result.status)}`);
}

/** Stripe's events are small; a checkout session's is a few kilobytes. */
const maxWebhookBytes = 64 * 1024;

export interface OrderRouteParts {
  sessions: Sessions;
  orders: OrderStore;
  payments: CardPayments;
  settings: SettingsStore;
  streams: LiveStreams;
}

/** A rider's own orders (docs/product.md §8, §14); every query is filtered by the session's user. */
export function orderRoutes({ sessions, orders, payments, settings, streams }: OrderRouteParts) {
  const session = sessions.require();
  /** The settings' payment methods, in their order, less Card on a server without Stripe's keys. */
  async function offered(): Promise<string[]> {
    return (await settings.current()).paymentMethods.filter((id) => id !== card.id || payments.offered);
  }
  return (
    new Hono<AppEnv>()
      .get(endpoints.paymentMethods.path, async (c) => c.json({ methods: await offered() }))

      .get(endpoints.quote.path, session, async (c) => {
        return c.json(await orders.quote(c.get('session').user.uid, readQuery(c, endpoints.quote.query)));
      })

      .post(endpoints.placeOrder.path, session, async (c) => {
        const input = await readJson(c, endpoints.placeOrder.body, {
          address: 'order/invalid-address',
          paymentMethod: 'order/invalid-payment-method',
          shippingMethod: 'order/invalid-shipping-method',
        });
        if (!(await offered()).includes(input.paymentMethod)) throw new HttpError('order/invalid-payment-method');
        c.set('paymentMethod', input.paymentMethod);
        const { user } = c.get('session');
        const result = await orders.place(user, input);
        if (!result.ok) throw placeRefusal(result);
        const { order } = result;
        // A repeated key answers the order it made the first time (and its session, if still waiting for payment).
        const status = result.created ? 201 : 200;
        if (order.paymentMethod !== card.id || order.status !== 'placed') return c.json({ order }, status);
        // The same key again (a double click, a retry): the session already made, if it is still open.
        const paying = await payments.checkout(orderNumberParam(order.number), user.uid, { reuse: !result.created });
        if (paying.ok) return c.json({ order, payUrl: paying.url }, status);
        return c.json({ order, payError: checkoutRefusal(paying).message }, status);
      })

      // The rider's order pages follow their orders: a nudge, and the page reloads the order.
      .get(endpoints.ordersStream.path, session, (c) => {
        const { uid } = c.get('session').user;
        return streams.open(c, c.get('session'), () => ({
          topic: ordersTopic,
          start: async () => sseFrame('ready'),
          frame: (change) => {
            if (!('number' in change)) return sseFrame('ready');
            return change.uid === uid ? sseFrame('order', { number: formatOrderNumber(change.number) }) : '';
          },
        }));
      })

      .get(endpoints.orders.path, session, async (c) => {
        const { page } = readQuery(c, endpoints.orders.query);
        return c.json(await orders.list({ uid: c.get('session').user.uid, page }));
      })

      .get(endpoints.order.path, session, async (c) => {
        const number = orderNumberParam(c.req.param('number'));
        const order = await orders.get(number, { uid: c.get('session').user.uid });
        if (!order) throw new HttpError('order/not-found');
        return c.json({ order });
      })

      .post(endpoints.cancelOrder.path, session, async (c) => {
        const number = orderNumberParam(c.req.param('number'));
        const result = await orders.cancel(number, { ...c.get('session').user, role: 'rider' });
        if (!result.ok) throw moveRefusal(result);
        return c.json({ order: result.order });
      })

      .post(endpoints.payOrder.path, session, async (c) => {
        const number = orderNumberParam(c.req.param('number'));
        const paying = await payments.checkout(number, c.get('session').user.uid);
        if (!paying.ok) throw checkoutRefusal(paying);
        return c.json({ url: paying.url });
      })

      // Signed by Stripe, not sent by a browser: the same-origin rule does not apply (app.ts), the signature does.
      .post(endpoints.stripeWebhook.path, async (c) => {
        const body = await readText(c, maxWebhookBytes);
        const received = await payments.receive(body, c.req.header('stripe-signature'));
        if (!received.ok) {
          throw new HttpError(received.reason === 'not-offered' ? 'request/not-found' : 'payment/invalid-signature');
        }
        return c.body(null, 204);
      })
  );
}
