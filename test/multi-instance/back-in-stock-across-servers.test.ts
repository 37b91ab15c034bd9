import { describe, expect, it } from 'vitest';
import type { ReceivedMail } from '../../scripts/mailbox';
import { Client } from '../support/client';
import { twoServersOnOneSchema } from '../support/two-servers';
import { until } from '../support/until';

/**
 * Back in stock on two servers sharing one PostgreSQL schema (docs/decisions/0058-back-in-stock.md): both raise the
 * same size at the same moment, many times over; each wait gives exactly one e-mail, written once and sent once.
 */
const servers = twoServersOnOneSchema({ owner: true });

const riderCount = 12;

describe('back in stock on two servers', () => {
  it.each([1, 2, 3])(
    'round %i: A and B raise the same size at once (the form, the command line, a cancel): one e-mail a wait',
    async (round) => {
      const { a, b, owner } = servers;
      const name = `Numnah ${round}-${Math.random().toString(36).slice(2, 8)}`;
      const sizes = [
        { size: 'S', stock: 1 },
        { size: 'M', stock: 0 },
      ];
      const created = await owner.json('POST', '/api/admin/products', {
        name,
        details: '',
        priceCents: 4500,
        shown: true,
        sizes,
      });
      expect(created.status).toBe(201);
      const { itemid } = created.body.product;
      // The last S goes to a buyer, whose cancel gives it back during the race.
      const buyer = new Client(b.url);
      await buyer.signupConfirmed();
      await buyer.add(itemid, 'S');
      const placed = await buyer.placeOrder();
      expect(placed.status).toBe(201);

      const riders = await Promise.all(
        Array.from({ length: riderCount }, async (_, i) => {
          const rider = new Client(i % 2 ? a.url : b.url);
          await rider.signupConfirmed();
          for (const size of ['S', 'M']) {
            const asked = await rider.json('POST', '/api/account/stock-alerts', { itemid, size });
            expect(asked.status).toBe(201);
          }
          return rider;
        }),
      );
      const product = (await owner.json('GET', `/api/admin/products/${itemid}`)).body;
      expect(product.waiting).toEqual({ S: riderCount, M: riderCount });
      const form = {
        name,
        details: '',
        priceCents: 4500,
        shown: true,
        version: product.product.version,
        sizes: [
          { size: 'S', stock: 0, stockShown: 0 },
          { size: 'M', stock: 3, stockShown: 0 },
        ],
      };
      await Promise.all([
        a.stock.set(2, { itemid, size: 'M' }),
        b.stock.set(4, { itemid, size: 'M' }),
        a.stock.set(1, { itemid }),
        b.stock.set(2, { itemid }),
        owner.json('PUT', `/api/admin/products/${itemid}`, form),
        buyer.json('POST', `/api/orders/${placed.body.order.number}/cancel`),
      ]);

      const written = await a.db.kysely
        .selectFrom('outbox')
        .select(['recipient', 'subject'])
        .where('kind', '=', 'back-in-stock')
        .where('subject', 'like', `${name},%`)
        .execute();
      const expected = riders.flatMap((r) =>
        ['S', 'M'].map((size) => `${r.user?.email} ${name}, size ${size}, is back`),
      );
      expect(written.map((e) => `${e.recipient} ${e.subject}`).sort()).toEqual(expected.sort());
      const left = await a.db.kysely.selectFrom('stock_wait').select('id').where('itemid', '=', itemid).execute();
      expect(left).toEqual([]);

      // Sent once, by whichever server claimed each: both mailboxes together hold each e-mail once.
      const arrived = (): ReceivedMail[] =>
        [a.mailbox, b.mailbox].flatMap(
          (m) => m?.mails.filter((mail) => mail.parsed.subject?.startsWith(`${name},`)) ?? [],
        );
      await until(() => arrived().length >= expected.length, 20_000, 'every e-mail');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(
        arrived()
          .map((m) => `${m.to.join()} ${m.parsed.subject}`)
          .sort(),
      ).toEqual(expected.sort());
    },
    60_000,
  );

  it.each([1, 2, 3])(
    'round %i: riders ask on A while B raises the size: every alert made is e-mailed once, none stays open in stock',
    async (round) => {
      const { a, b, owner } = servers;
      const name = `Saddle pad ${round}-${Math.random().toString(36).slice(2, 8)}`;
      const body = { name, details: '', priceCents: 4500, shown: true, sizes: [{ size: 'Full', stock: 0 }] };
      const { itemid } = (await owner.json('POST', '/api/admin/products', body)).body.product;
      const riders = await Promise.all(
        Array.from({ length: riderCount }, async () => {
          const rider = new Client(a.url);
          await rider.signupConfirmed();
          return rider;
        }),
      );
      // The riders ask one after another, 10 ms apart; B raises the size once the first three alerts are made.
      const asked = riders.map(async (rider, i) => {
        await new Promise((resolve) => setTimeout(resolve, 10 * i));
        return rider.json('POST', '/api/account/stock-alerts', { itemid, size: 'Full' });
      });
      const open = async () =>
        (await a.db.kysely.selectFrom('stock_wait').select('id').where('itemid', '=', itemid).execute()).length;
      await until(async () => (await open()) >= 3, 10_000, 'three alerts');
      await b.stock.set(round, { itemid, size: 'Full' });
      const replies = await Promise.all(asked);
      const made = replies.filter((r) => r.status === 201).map((r) => r.body.alert.id);
      expect(replies.every((r) => r.status === 201 || r.body.code === 'stock-alert/in-stock')).toBe(true);
      expect(await a.db.kysely.selectFrom('stock_wait').select('id').where('itemid', '=', itemid).execute()).toEqual(
        [],
      );
      const written = await a.db.kysely
        .selectFrom('outbox')
        .select('recipient')
        .where('kind', '=', 'back-in-stock')
        .where('subject', 'like', `${name},%`)
        .execute();
      expect(written).toHaveLength(made.length);
      console.info(`[back in stock, round ${round}] ${made.length} of ${riderCount} alerts made before the raise`);
    },
    60_000,
  );
});
