import { expect, it } from 'vitest';
import { limits } from '../../src/shared/limits';
import type { Order } from '../../src/shared/orders';
import { Client } from '../support/client';
import { crashScene } from '../support/crash-scene';
import { stockUp, type TestDatabase } from '../support/test-database';

const riders = 5;
const killAfterAcks = 40;

const scene = crashScene();

/**
 * What must hold of the invoices after any crash: every paid order has exactly one whole invoice and every invoice a
 * paid order, and this year's numbers are 1 to the number of invoices, none skipped, none twice.
 */
async function expectWholeInvoices(db: TestDatabase): Promise<number> {
  const paid = await db.query<{ number: number }>("select number from shop_order where status = 'paid' order by 1");
  const invoices = await db.query<{ number: string; order_number: number; record: string }>(
    "select number, order_number, record from invoice where kind = 'invoice' order by number",
  );
  expect(invoices.map((row) => Number(row.order_number)).sort((a, b) => a - b)).toEqual(
    paid.map((row) => Number(row.number)),
  );
  const year = invoices[0]?.number.slice(4, 8);
  expect(invoices.map((row) => row.number)).toEqual(
    invoices.map((_, i) => `INV-${year}-${String(i + 1).padStart(5, '0')}`),
  );
  for (const row of invoices) {
    const record = JSON.parse(row.record);
    expect(record.number).toBe(row.number);
    expect(record.order).toBe(`PF-${row.order_number}`);
  }
  return invoices.length;
}

it('SIGKILL in the middle of orders marked paid at once leaves no gap in the invoice numbers and no half invoice', async () => {
  const database = await scene.database();
  let server = await scene.start();
  await stockUp(database);
  const clients = await Promise.all(
    Array.from({ length: riders }, async () => {
      const client = new Client(server.url);
      await client.signupConfirmed();
      return client;
    }),
  );
  // Before the orders, whose e-mails would go out ahead of its link.
  const owner = new Client(server.url);
  const { uid } = await owner.signupConfirmed();
  await database.query("insert into user_role (uid, role) values ($1, 'owner')", [uid]);
  const orders: Order[] = [];
  await Promise.all(
    clients.map(async (client) => {
      for (let i = 0; i < limits.ordersPerHour; i++) orders.push(await client.order('8'));
    }),
  );

  const running = server;
  let acknowledged = 0;
  let killed: Promise<unknown> | undefined;
  const outcomes = await Promise.all(
    orders.map(async (order) => {
      try {
        const reply = await owner.json('POST', `/api/admin/orders/${order.number}/moves`, {
          to: 'paid',
          from: 'placed',
        });
        if (reply.status === 200) {
          acknowledged += 1;
          // SIGKILL: no shutdown code runs, as in a crash or an out-of-memory kill.
          if (acknowledged === killAfterAcks) killed = running.kill('SIGKILL');
        }
        return reply.status;
      } catch {
        return 'cut off';
      }
    }),
  );
  expect(await killed).toMatchObject({ signal: 'SIGKILL' });
  expect(outcomes.filter((o) => o === 'cut off').length).toBeGreaterThan(0);

  server = await scene.start();
  const issued = await expectWholeInvoices(database);
  expect(issued).toBeGreaterThanOrEqual(killAfterAcks);
  // The shop numbers on from there.
  const after = new Client(server.url);
  after.cookies = new Map(owner.cookies);
  const unpaid = await database.query<{ number: number }>(
    "select number from shop_order where status = 'placed' order by number limit 1",
  );
  const next = await after.json('POST', `/api/admin/orders/PF-${unpaid[0]?.number}/moves`, {
    to: 'paid',
    from: 'placed',
  });
  expect(next.body.order.invoice).toMatch(new RegExp(`-${String(issued + 1).padStart(5, '0')}$`));
  expect(await expectWholeInvoices(database)).toBe(issued + 1);
  console.info(`[invoices crash ${database.backend}] ${acknowledged} acknowledged, ${issued} invoices after restart`);
}, 120_000);
