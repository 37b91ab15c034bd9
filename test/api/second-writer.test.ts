import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { poolSize, poolWaitMs } from '../../src/server/db/open';
import { busyWaitMs } from '../../src/server/db/sqlite-driver';
import { type Client, confirmedRider, type Reply, withSize } from '../support/client';
import { expectError } from '../support/expect-error';
import { serverOnOwnDatabase } from '../support/test-database';

/**
 * Another program writing the shop's SQLite file while the shop runs (the owner command, a stock or backup
 * command, an operator's sqlite3): the shop waits for the file, never answers 5xx, and loses no write it
 * acknowledged (docs/decisions/0020-waiting-for-the-sqlite-file.md): it answers 503 only when the file stays locked past the wait.
 */
describe.runIf(process.env.TEST_BACKEND !== 'postgres')('a second writer on the SQLite file', () => {
  const shop = serverOnOwnDatabase('sqlite');

  /**
   * A child process that writes the file in a loop for at most `ms`: each round takes the write lock
   * (BEGIN IMMEDIATE), inserts rows, holds the lock a moment and commits, then pauses 2 ms. It prints how many
   * rounds it committed when it ends.
   */
  function secondWriter(file: string, ms: number): ChildProcess {
    const program = `
      const Database = require('better-sqlite3');
      const db = new Database(${JSON.stringify(file)});
      db.pragma('busy_timeout = 10000');
      const insert = db.prepare('insert into login_attempt (key, failures, window_started_at) values (?, 0, 0)');
      const end = Date.now() + ${ms};
      let rounds = 0;
      let stopping = false;
      process.on('SIGTERM', () => { stopping = true; });
      function round() {
        db.exec('begin immediate');
        for (let i = 0; i < 20; i++) insert.run('second-writer:' + rounds + ':' + i);
        const held = Date.now() + 1;
        while (Date.now() < held) {}
        db.exec('commit');
        rounds++;
        if (stopping || Date.now() > end) {
          process.stdout.write(String(rounds));
          db.close();
          return;
        }
        setTimeout(round, 2);
      }
      round();
    `;
    return spawn(process.execPath, ['-e', program], { stdio: ['ignore', 'pipe', 'inherit'] });
  }

  it('riders add, delete and order while it writes: no 5xx, and every acknowledged write is there', async () => {
    const writer = secondWriter(shop.database.url.slice('file:'.length), 30_000);
    let rounds = '';
    writer.stdout?.on('data', (chunk: Buffer) => {
      rounds += chunk.toString();
    });
    // Signing up (Better Auth's own writes) while it writes, too.
    const riders = await Promise.all(Array.from({ length: 4 }, () => confirmedRider(shop.server.url)));
    const replies: Reply[] = [];
    const kept = new Map<Client, Set<string>>(riders.map((rider) => [rider, new Set()]));
    const ordered = new Map<Client, Set<string>>(riders.map((rider) => [rider, new Set()]));
    const deleted = new Set<string>();

    await Promise.all(
      riders.map(async (rider) => {
        const mine = kept.get(rider) as Set<string>;
        for (let round = 0; round < 3; round++) {
          for (let i = 0; i < 12; i++) {
            const added = await rider.json('POST', '/api/cart', withSize(String(1 + (i % 8))));
            replies.push(added);
            if (added.status === 201) mine.add(added.body.item.id);
            if (added.status === 201 && i % 3 === 0) {
              const removed = await rider.json('DELETE', `/api/cart/${added.body.item.id}`);
              replies.push(removed);
              if (removed.status === 204) {
                mine.delete(added.body.item.id);
                deleted.add(added.body.item.id);
              }
            }
          }
          const placed = await rider.placeOrder({ cartItemIds: [...mine] });
          replies.push(placed);
          if (placed.status === 201) {
            for (const id of mine) ordered.get(rider)?.add(id);
            mine.clear();
          }
        }
      }),
    );
    writer.kill('SIGTERM');
    await once(writer, 'exit');

    // The second writer really wrote while the riders did.
    expect(Number(rounds)).toBeGreaterThan(50);
    const failures = replies.filter((reply) => reply.status >= 500).map((reply) => [reply.status, reply.body]);
    expect(failures).toEqual([]);
    expect(replies.every((reply) => reply.status < 300)).toBe(true);

    for (const rider of riders) {
      // What each rider was told is in the cart is there; what was ordered is in the orders; what was deleted is not.
      const cart = (await rider.cart()).map((item) => item.id);
      expect(new Set(cart)).toEqual(kept.get(rider));
      const orders = (await rider.json('GET', '/api/orders')).body.orders;
      expect(orders).toHaveLength(3);
    }
    const lines = await shop.database.query<{ n: number }>('select count(*) as n from order_line');
    expect(Number(lines[0]?.n)).toBe([...ordered.values()].reduce((sum, ids) => sum + ids.size, 0));
    expect(deleted.size).toBeGreaterThan(0);
  });

  it('answers 503 server/busy with Retry-After when the file stays locked, and serves reads meanwhile', async () => {
    const rider = await confirmedRider(shop.server.url);
    const item = await rider.add('1');
    const holder = lockHolder(shop.database.url.slice('file:'.length), busyWaitMs + 2_000);
    await once(holder.stdout as NodeJS.ReadableStream, 'data');

    const add = rider.json('POST', '/api/cart', withSize('2'));
    // While the writes wait, the event loop is free: a read is answered at once.
    const started = Date.now();
    expect((await rider.cart()).map((row) => row.id)).toEqual([item.id]);
    expect(Date.now() - started).toBeLessThan(busyWaitMs / 2);

    const refused = await add;
    expectError(refused, 503, 'server/busy');
    expect(refused.headers.get('retry-after')).toBe('1');
    await once(holder, 'exit');
    expect((await rider.json('POST', '/api/cart', withSize('2'))).status).toBe(201);
  });
});

/** A child process that takes the file's write lock, says so on stdout, holds it `ms` and ends. */
function lockHolder(file: string, ms: number): ChildProcess {
  const program = `
    const db = new (require('better-sqlite3'))(${JSON.stringify(file)});
    db.exec('begin immediate');
    process.stdout.write('locked');
    setTimeout(() => { db.exec('rollback'); db.close(); }, ${ms});
  `;
  return spawn(process.execPath, ['-e', program], { stdio: ['ignore', 'pipe', 'inherit'] });
}

/**
 * Another program holding a lock the shop's writes need on its PostgreSQL database (an operator's `psql`, a long
 * migration): the orders that need it wait, each on one of the pool's connections; a request that then finds every
 * connection taken for longer than it waits is answered 503 `server/busy`, never 500, and the waiting orders are
 * placed once the lock is let go.
 */
describe.runIf(process.env.TEST_BACKEND === 'postgres')('a lock held on the PostgreSQL database', () => {
  const shop = serverOnOwnDatabase('postgres');

  it('answers 503 server/busy with Retry-After to a request that waits past the pool, and places the others after', async () => {
    const riders = await Promise.all(
      Array.from({ length: poolSize + 1 }, async () => {
        const rider = await confirmedRider(shop.server.url);
        await rider.add('1');
        return rider;
      }),
    );
    const holder = new pg.Client({ connectionString: shop.database.url });
    await holder.connect();
    try {
      // Every order takes its number from a row of `counter`: none can while the table is locked.
      await holder.query('begin');
      await holder.query('lock table counter in exclusive mode');
      const placing = riders.map((rider) => rider.placeOrder());
      await new Promise((resolve) => setTimeout(resolve, poolWaitMs + 2_000));
      await holder.query('rollback');
      const replies = await Promise.all(placing);
      const refused = replies.filter((reply) => reply.status !== 201);
      expect(refused.length, JSON.stringify(replies.map((reply) => reply.status))).toBeGreaterThan(0);
      for (const reply of refused) {
        expectError(reply, 503, 'server/busy');
        expect(reply.headers.get('retry-after')).toBe('1');
      }
      expect(replies.length - refused.length).toBeGreaterThan(0);
    } finally {
      await holder.end();
    }
  }, 60_000);
});
