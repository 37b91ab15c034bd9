import { Hono } from 'hono';
import { endpoints } from '../../shared/api';
import type { ErrorCode } from '../../shared/errors';
import { type OrderStatus, parseOrderNumber, statusLabels } from '../../shared/orders';
import type { AppEnv } from '../app-env';
import type { Sessions } from '../auth/sessions';
import { HttpError } from '../http/errors';
import { readJson, readQuery } from '../http/input';
import type { MoveResult, OrderStore, PlaceResult } from './order-store';

type Refusal = Extract<PlaceResult, { ok: false }>;

const placeRefusals: Record<Exclude<Refusal['reason'], 'too-many' | 'sold-out' | 'size-missing'>, ErrorCode> = {
  'cart-empty': 'order/cart-empty',
  'cart-changed': 'order/cart-changed',
  'no-user': 'auth/unauthenticated',
};

function placeRefusal(result: Refusal): HttpError {
  if (result.reason === 'too-many') {
    return new HttpError('order/too-many', undefined, { 'Retry-After': String(result.retryAfter) });
  }
  if (result.reason === 'sold-out' || result.reason === 'size-missing') {
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

/** Why a move was refused, as our error (with the order's status now, where that helps). */
export function moveRefusal(result: Extract<MoveResult, { ok: false }>): HttpError {
  const now = (status: OrderStatus | undefined) => (status ? ` It is ${statusLabels[status].toLowerCase()} now.` : '');
  if (result.reason === 'not-found') return new HttpError('order/not-found');
  if (result.reason === 'status-changed') {
    return new HttpError('order/status-changed', `Someone else has just changed this order.${now(result.status)}`);
  }
  return new HttpError('order/invalid-transition', `This order cannot be changed that way.${now(result.status)}`);
}

/** A rider's own orders (docs/product.md §8); every query is filtered by the session's user. */
export function orderRoutes(sessions: Sessions, orders: OrderStore) {
  const session = sessions.require();
  return new Hono<AppEnv>()
    .post(endpoints.placeOrder.path, session, async (c) => {
      const input = await readJson(c, endpoints.placeOrder.body, {
        address: 'order/invalid-address',
        paymentMethod: 'order/invalid-payment-method',
      });
      c.set('paymentMethod', input.paymentMethod);
      const result = await orders.place(c.get('session').user, input);
      if (!result.ok) throw placeRefusal(result);
      // A repeated key answers the order it made the first time.
      return c.json({ order: result.order }, result.created ? 201 : 200);
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
      const result = await orders.move(number, 'cancelled', { ...c.get('session').user, role: 'rider' });
      if (!result.ok) throw moveRefusal(result);
      return c.json({ order: result.order });
    });
}
