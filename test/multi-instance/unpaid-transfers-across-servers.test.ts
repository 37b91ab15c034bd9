import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoles } from '../../src/server/auth/roles';
import { Client } from '../support/client';
import { createDiscount, listed, placeWith } from '../support/discounts';
import { createTestSchema, type TestSchema } from '../support/postgres';
import { startTestServer, type TestServer } from '../support/server';
import { age, mailsAbout, movesTo } from '../support/unpaid-transfers';

/**
 * Unpaid bank-transfer orders on two servers sharing one PostgreSQL schema (docs/decisions/0049-unpaid-bank-transfers.md):
 * both servers' housekeeping sweeps, and at the same moment: each order gets one reminder, one cancel, one e-mail of
 * each, and its stock and its code's use back once.
 */
let schema: TestSchema;
let a: TestServer;
let b: TestServer;
let owner: Client;
beforeAll(async () => {
  schema = await createTestSchema();
  a = await startTestServer({}, { schema, name: 'a' });
  b = await startTestServer({}, { schema, name: 'b' });
  owner = new Client(a.url);
  const { email } = await owner.signupConfirmed();
  await createRoles(a.db).grant(email);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await schema?.drop();
});

/** A rider's bank-transfer order of one bridle, through `url`, with the code if given: its number. */
async function order(url: string, code?: string): Promise<string> {
  const client = new Client(url);
  await client.signupConfirmed();
  await client.add('1');
  const reply = code ? await placeWith(client, code) : await client.placeOrder();
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.order.number;
}

async function stockOfItem(itemid: string): Promise<number[]> {
  const rows = await a.db.kysely.selectFrom('product_size').select('stock').where('itemid', '=', itemid).execute();
  return rows.map((row) => Number(row.stock));
}

describe('unpaid bank transfers on two servers', () => {
  it('both servers sweep at the same moment, five rounds: one reminder, one cancel, stock and code back once', async () => {
    for (let round = 0; round < 5; round++) {
      await a.stock.set(100, { itemid: '1' });
      const discount = await createDiscount(owner, { maxUses: 1 });
      const numbers = await Promise.all([
        order(a.url, discount.code),
        ...Array.from({ length: 5 }, (_, i) => order((i % 2 === 0 ? b : a).url)),
      ]);
      expect((await listed(owner, discount.id))?.uses).toBe(1);
      await age(a, numbers, 7.01);
      const reminded = await Promise.all([a.sweepUnpaidTransfers(), b.sweepUnpaidTransfers()]);
      expect(reminded[0] + reminded[1]).toBe(numbers.length);
      for (const number of numbers) {
        expect(await mailsAbout(a, 'payment-reminder', number), number).toHaveLength(1);
      }

      await age(a, numbers, 8.1);
      const cancelled = await Promise.all([a.sweepUnpaidTransfers(), b.sweepUnpaidTransfers()]);
      expect(cancelled[0] + cancelled[1]).toBe(numbers.length);
      for (const number of numbers) {
        expect(await movesTo(a, number, 'cancelled'), number).toBe(1);
        expect(await mailsAbout(a, 'order-cancelled', number), number).toHaveLength(1);
        expect(await mailsAbout(a, 'payment-reminder', number), number).toHaveLength(1);
      }
      const left = await stockOfItem('1');
      expect(left).toEqual(left.map(() => 100));
      expect((await listed(owner, discount.id))?.uses).toBe(0);
    }
  });
});
