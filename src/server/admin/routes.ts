import { Hono } from 'hono';
import { endpoints } from '../../shared/api';
import type { AppEnv } from '../app-env';
import type { Roles } from '../auth/roles';
import type { Sessions } from '../auth/sessions';
import { shopDays } from '../books/shop-time';
import { HttpError } from '../http/errors';
import { orderNumberParam, readJson, readQuery } from '../http/input';
import { type LiveStreams, sseFrame } from '../live/live-streams';
import type { Outbox } from '../mail/outbox';
import type { OrderStore } from '../orders/order-store';
import { ordersTopic } from '../orders/order-topic';
import { moveRefusal } from '../orders/routes';
import type { CardPayments } from '../payments/card-payments';
import type { SettingsStore } from '../settings/settings-store';
import { ordersCsv } from './csv';

export interface AdminRouteParts {
  sessions: Sessions;
  roles: Roles;
  orders: OrderStore;
  outbox: Outbox;
  payments: CardPayments;
  streams: LiveStreams;
  /** EXPORT_BATCH_ORDERS: how many orders the CSV export reads from the database at a time. */
  exportBatch: number;
  /** The shop's settings: the export's days are its time zone's. */
  settings: Pick<SettingsStore, 'current'>;
}

/**
 * The back office (docs/product.md §11). Every route checks the owner's role on the server, for each request: a
 * visitor is answered 401, a rider 403 auth/forbidden.
 */
export function adminRoutes({
  sessions,
  roles,
  orders,
  outbox,
  payments,
  streams,
  exportBatch,
  settings,
}: AdminRouteParts) {
  const owner = sessions.require({ owner: true });
  return (
    new Hono<AppEnv>()
      .get(endpoints.adminOrders.path, owner, async (c) => {
        const { q, ...filter } = readQuery(c, endpoints.adminOrders.query);
        return c.json(await orders.list({ ...filter, search: q }));
      })

      // The owners' live list: a bare nudge for each change (the page reloads the list it shows, through the API).
      // The role is read again before each nudge, and a stream whose owner is one no more ends.
      .get(endpoints.adminOrdersStream.path, owner, (c) => {
        const { user } = c.get('session');
        return streams.open(
          c,
          c.get('session'),
          () => ({
            topic: ordersTopic,
            start: async () => sseFrame('ready'),
            frame: async () => ((await roles.of(user.uid)) === 'owner' ? sseFrame('orders') : null),
          }),
          { forOwner: true },
        );
      })

      .get(endpoints.adminExport.path, owner, async (c) => {
        const { from, to } = readQuery(c, endpoints.adminExport.query);
        const { timeZone } = (await settings.current()).format;
        const days = await orders.exportOf(...shopDays(from, to, timeZone));
        const csv = ordersCsv(days.taxNames, orders.exportBatches(days, exportBatch), { timeZone });
        return c.body(csv, 200, {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="piaffe-orders-${from}-to-${to}.csv"`,
        });
      })

      .get(endpoints.adminOrder.path, owner, async (c) => {
        const order = await orders.get(orderNumberParam(c.req.param('number')), { forOwner: true });
        if (!order) throw new HttpError('order/not-found');
        return c.json({ order });
      })

      .post(endpoints.adminMoveOrder.path, owner, async (c) => {
        const number = orderNumberParam(c.req.param('number'));
        const { to, from, note } = await readJson(c, endpoints.adminMoveOrder.body);
        const { user } = c.get('session');
        const owner = { ...user, role: 'owner' } as const;
        // A cancel goes through its payment method's step first: a paid card order is refunded first.
        const result =
          to === 'cancelled'
            ? await orders.cancel(number, owner, { from, note })
            : await orders.move(number, to, owner, { from, note });
        if (!result.ok) throw moveRefusal(result);
        return c.json({ order: result.order });
      })

      .get(endpoints.adminPaymentProblems.path, owner, async (c) =>
        c.json(await payments.problems(readQuery(c, endpoints.adminPaymentProblems.query).page)),
      )

      .get(endpoints.adminOutbox.path, owner, async (c) =>
        c.json(await outbox.list(readQuery(c, endpoints.adminOutbox.query))),
      )

      .post(endpoints.adminRetryEmail.path, owner, async (c) => {
        const id = c.req.param('id');
        const retried = /^[0-9a-f-]{36}$/.test(id) ? await outbox.retry(id) : undefined;
        if (!retried) throw new HttpError('outbox/not-found');
        if (retried === 'not-retryable') throw new HttpError('outbox/not-retryable');
        return c.json({ email: retried });
      })
  );
}
