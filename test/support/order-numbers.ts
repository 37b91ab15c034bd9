import { expect } from 'vitest';
import type { Db } from '../../src/server/db/database';
import { sequences } from '../../src/server/db/schema';
import { Client } from './client';

class RolledBack extends Error {}

/**
 * Riders place orders through `urls` at once while, at the same moment, units of work on `dbs` take an order number
 * and roll back. Checks the exact numbers: every order's, one after the other from the number after the last order
 * before the race, none skipped and none given twice, and the next order's right after them.
 */
export async function raceForOrderNumbers(urls: readonly string[], dbs: readonly Db[], orders: number): Promise<void> {
  const riders = await Promise.all(
    Array.from({ length: orders + 1 }, async (_, i) => {
      const client = new Client(urls[i % urls.length] as string);
      await client.signupConfirmed();
      await client.add('8');
      return client;
    }),
  );
  const [first, ...racing] = riders as [Client, ...Client[]];
  const before = Number((await first.order()).number.replace(/^\D+/, ''));
  const rollbacks = Array.from({ length: orders }, (_, i) =>
    (dbs[i % dbs.length] as Db)
      .run(async (uow) => {
        await uow.next(sequences.orderNumber);
        throw new RolledBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      }),
  );
  const [replies] = await Promise.all([Promise.all(racing.map((rider) => rider.placeOrder())), ...rollbacks]);
  expect(replies.map((reply) => reply.status)).toEqual(racing.map(() => 201));
  const numbers = replies
    .map((reply) => Number(String(reply.body.order.number).replace(/^\D+/, '')))
    .sort((a, b) => a - b);
  expect(numbers).toEqual(Array.from({ length: orders }, (_, i) => before + 1 + i));
  await first.add('8');
  expect((await first.order()).number).toMatch(new RegExp(`${before + orders + 1}$`));
}
