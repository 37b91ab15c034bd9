import { expect, it } from 'vitest';
import { createRoles } from '../../src/server/auth/roles';
import { newShopSettings } from '../../src/server/db/new-shop-settings';
import { currentMonth, nextDocumentNumber } from '../../src/server/invoices/invoicing';
import { limits } from '../../src/shared/limits';
import type { Order } from '../../src/shared/orders';
import { Client, sameBrowserOn } from '../support/client';
import { twoServersOnOneSchema } from '../support/two-servers';

/** Invoices issued through two servers on one PostgreSQL schema, as behind a load balancer. */
const servers = twoServersOnOneSchema();

class RolledBack extends Error {}

it("200 orders marked paid at once through both servers get the year's first invoices, 1 to 200, while units that took a number roll back", async () => {
  const orders = 200;
  // The owner confirms an address before the orders queue their 200 confirmations in the outbox ahead of its link.
  const owner = new Client(servers.a.url);
  const { email } = await owner.signupConfirmed();
  await createRoles(servers.a.db).grant(email);
  const owners = [owner, sameBrowserOn(servers.b.url, owner)];
  // Each rider places as many orders as an hour allows.
  const riders = await Promise.all(
    Array.from({ length: orders / limits.ordersPerHour }, async (_, i) => {
      const client = new Client(i % 2 === 0 ? servers.a.url : servers.b.url);
      await client.signupConfirmed();
      return client;
    }),
  );
  const placed = (
    await Promise.all(
      riders.map(async (rider) => {
        const own: Order[] = [];
        for (let i = 0; i < limits.ordersPerHour; i++) own.push(await rider.order('8'));
        return own;
      }),
    )
  ).flat();

  const rollbacks = Array.from({ length: 40 }, (_, i) =>
    (i % 2 === 0 ? servers.a : servers.b).db
      .run(async (uow) => {
        await nextDocumentNumber(uow, 'invoice', Date.now(), newShopSettings.format.timeZone);
        throw new RolledBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      }),
  );
  const [replies] = await Promise.all([
    Promise.all(
      placed.map((order, i) =>
        (owners[i % 2] as Client).json('POST', `/api/admin/orders/${order.number}/moves`, {
          to: 'paid',
          from: 'placed',
        }),
      ),
    ),
    ...rollbacks,
  ]);
  expect(replies.map((reply) => reply.status)).toEqual(placed.map(() => 200));
  const year = currentMonth(newShopSettings.format.timeZone).slice(0, 4);
  const numbers = replies.map((reply) => reply.body.order.invoice as string).sort();
  expect(numbers).toEqual(Array.from({ length: orders }, (_, i) => `INV-${year}-${String(i + 1).padStart(5, '0')}`));
  const rows = await servers.schema.query<{ n: number; orders: number }>(
    "select count(*)::int as n, count(distinct order_number)::int as orders from invoice where kind = 'invoice'",
  );
  expect(rows.rows[0]).toEqual({ n: orders, orders });
}, 120_000);
