import { type Context, Hono } from 'hono';
import { endpoints } from '../../shared/api';
import { type DiscountRefusal, refusalText } from '../../shared/discounts';
import type { ErrorCode } from '../../shared/errors';
import type { MoneyFormat } from '../../shared/money';
import { formatOrderNumber, type OrderStatus, statusLabels } from '../../shared/orders';
import { card, cardMinimumMessage } from '../../shared/payment/card';
import { notShippedMessage, shippingChangedMessage } from '../../shared/shipping';
import type { AppEnv } from '../app-env';
import type { Sessions } from '../auth/sessions';
import type { LoginThrottle } from '../auth/throttle';
import { clientAddress } from '../http/client-address';
import { HttpError } from '../http/errors';
import { orderNumberParam, readJson, readQuery, readText } from '../http/input';
import { type LiveStreams, sseFrame } from '../live/live-streams';
import { readPlace } from '../places/places';
import type { SettingsStore } from '../settings/settings-store';
import type { CardCheckout, CardPaying } from './card-paying';
import type { CancelResult } from './order-moves';
import type { PlaceResult } from './order-placing';
import type { OrderStore } from './order-store';
import { ordersTopic } from './order-topic';
import { offeredPaymentMethods } from './payment-offer';

type Refusal = Extract<PlaceResult, { ok: false }>;

const placeRefusals: Record<
  Exclude<
    Refusal['reason'],
    | 'too-many'
    | 'sold-out'
    | 'size-missing'
    | 'unavailable'
    | 'discount-unavailable'
    | 'not-shipped'
    | 'shipping-changed'
    | 'card-minimum'
  >,
  ErrorCode
> = {
  'cart-empty': 'order/cart-empty',
  'no-such-method': 'order/invalid-shipping-method',
  'cart-changed': 'order/cart-changed',
  'no-user': 'auth/unauthenticated',
  'email-not-confirmed': 'auth/email-not-confirmed',
};

/** Why a discount code cannot be used, as our error, in the words the rider reads (docs/product.md §16). */
const discountRefusals = {
  invalid: 'discount/invalid',
  expired: 'discount/expired',
  minimum: 'discount/minimum',
  'used-up': 'discount/used-up',
  'already-used': 'discount/already-used',
} as const satisfies Record<DiscountRefusal, ErrorCode>;

/** Why an order was refused, as our error, its amounts written in the shop's currency and locale. */
function placeRefusal(result: Refusal, format: MoneyFormat): HttpError {
  if (result.reason === 'discount-unavailable') {
    const why = refusalText(result.why, result.minSubtotalCents, format);
    const message = `${why} The order was not placed; your cart is as it was.`;
    return new HttpError('order/discount-unavailable', message, {}, { reason: discountRefusals[result.why] });
  }
  if (result.reason === 'too-many') {
    return new HttpError('order/too-many', undefined, { 'Retry-After': String(result.retryAfter) });
  }
  if (result.reason === 'not-shipped') return new HttpError('order/not-shipped', notShippedMessage(result.country));
  if (result.reason === 'shipping-changed') {
    return new HttpError('order/shipping-changed', shippingChangedMessage(result.option, format));
  }
  if (result.reason === 'card-minimum') return new HttpError('order/card-minimum', cardMinimumMessage(format));
  if (result.reason === 'sold-out' || result.reason === 'size-missing' || result.reason === 'unavailable') {
    return new HttpError(`order/${result.reason}`, undefined, {}, { rows: result.rows });
  }
  return new HttpError(placeRefusals[result.reason]);
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
  payments: CardPaying;
  settings: SettingsStore;
  streams: LiveStreams;
  throttle: LoginThrottle;
  trustProxy: boolean;
}

/** A rider's own orders (docs/product.md §8, §14); every query is filtered by the session's user. */
export function orderRoutes({ sessions, orders, payments, settings, streams, throttle, trustProxy }: OrderRouteParts) {
  const session = sessions.require();
  const offered = () => offeredPaymentMethods(settings, payments.offered);
  /**
   * A discount code tried, counted against guessing before it is looked up (docs/SECURITY.md); `worked` gives the
   * attempt back when the code exists (used up or expired, it is worth nothing to a guesser): only codes found not
   * valid use up the allowance.
   */
  async function tryCode<T>(
    c: Context<AppEnv>,
    code: string | undefined,
    use: () => Promise<T>,
    worked: (result: T) => boolean,
  ): Promise<T> {
    if (code === undefined) return use();
    const attempt = await throttle.beginDiscountGuess({
      uid: c.get('session').user.uid,
      address: clientAddress(c, trustProxy),
      log: c.get('log'),
    });
    if (!attempt.allowed) {
      throw new HttpError('discount/too-many-attempts', undefined, { 'Retry-After': String(attempt.retryAfter) });
    }
    const result = await use();
    if (worked(result)) await attempt.succeeded();
    return result;
  }
  /**
   * An address's place as the shop reads it: a country that exists, and its region as the code of one of its
   * subdivisions however it was given (GET /api/places); anything else is refused with its field.
   */
  function placeOf<Place extends { country: string; region: string }>(place: Place, at: string): Place {
    const read = readPlace(place);
    if (!read.ok) throw new HttpError('order/invalid-address', read.message, {}, { field: `${at}${read.field}` });
    return read.place;
  }

  return (
    new Hono<AppEnv>()
      .get(endpoints.paymentMethods.path, async (c) => c.json({ methods: await offered() }))

      .get(endpoints.quote.path, session, async (c) => {
        const asked = readQuery(c, endpoints.quote.query);
        const query = { ...asked, ...placeOf(asked, '') };
        const { discountCode } = query;
        const result = await tryCode(
          c,
          discountCode,
          () => orders.quote(c.get('session').user, query),
          (quoted) => quoted.ok || quoted.reason !== 'invalid',
        );
        if (!result.ok) {
          const { format } = await settings.current();
          const message = refusalText(result.reason, result.minSubtotalCents, format);
          throw new HttpError(discountRefusals[result.reason], message);
        }
        return c.json(result.quote);
      })

      .post(endpoints.placeOrder.path, session, async (c) => {
        const sent = await readJson(c, endpoints.placeOrder.body, {
          address: 'order/invalid-address',
          paymentMethod: 'order/invalid-payment-method',
          shippingMethod: 'order/invalid-shipping-method',
        });
        const input = { ...sent, address: placeOf(sent.address, 'address.') };
        if (!(await offered()).includes(input.paymentMethod)) throw new HttpError('order/invalid-payment-method');
        c.set('paymentMethod', input.paymentMethod);
        const { user } = c.get('session');
        const result = await tryCode(
          c,
          input.discountCode,
          () => orders.place(user, input),
          (placed) => placed.ok || placed.reason !== 'discount-unavailable' || placed.why !== 'invalid',
        );
        if (!result.ok) throw placeRefusal(result, (await settings.current()).format);
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
        const keys = readQuery(c, endpoints.orders.query);
        return c.json(await orders.list({ ...keys, uid: c.get('session').user.uid }));
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
