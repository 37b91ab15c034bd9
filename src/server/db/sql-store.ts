import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { CartItem } from '../../shared/api';
import type { ChangeEvent, ChangeListener, SessionWatcher } from './change-feed';
import { isConstraintViolation } from './errors';
import { ping } from './migrations';
import type { CartItemTable, Database } from './schema';
import type { Store } from './store';

/** What differs between the databases: how a cart is locked and how changes reach other listeners. */
export interface DialectHooks {
  /** Serialises adds to one user's cart inside `trx`, so the row limit holds across servers. */
  lockCart(trx: Transaction<Database>, uid: string): Promise<void>;
  /** Publishes a change; runs inside the transaction that made it, so it goes out only on commit. */
  publish(trx: Kysely<Database>, event: ChangeEvent): Promise<void>;
  /** Delivers the changes of a committed transaction, where the transport needs that done by hand. */
  afterCommit(events: ChangeEvent[]): void;
  subscribe(uid: string, listener: ChangeListener): () => void;
  watchSessions(watcher: SessionWatcher): () => void;
  close(): Promise<void>;
}

function toCartItem(row: CartItemTable): CartItem {
  return {
    id: row.id,
    uid: row.uid,
    itemid: row.itemid,
    name: row.name,
    priceCents: Number(row.price_cents),
    details: row.details,
  };
}

/** The store on any SQL database Kysely speaks to; `hooks` carry the dialect's differences. */
export function createSqlStore(db: Kysely<Database>, hooks: DialectHooks): Store {
  /** Runs `work` in a transaction and delivers the events it published once it has committed. */
  async function inTransaction<T>(work: (trx: Transaction<Database>, events: ChangeEvent[]) => Promise<T>): Promise<T> {
    const events: ChangeEvent[] = [];
    const result = await db.transaction().execute((trx) => work(trx, events));
    hooks.afterCommit(events);
    return result;
  }

  async function publish(trx: Transaction<Database>, events: ChangeEvent[], event: ChangeEvent): Promise<void> {
    await hooks.publish(trx, event);
    events.push(event);
  }

  return {
    cart: {
      async list(uid) {
        const rows = await db
          .selectFrom('cart_item')
          .selectAll()
          .where('uid', '=', uid)
          .orderBy('created_at')
          .orderBy('id')
          .execute();
        return rows.map(toCartItem);
      },

      async add(uid, product, maxRows) {
        try {
          return await inTransaction(async (trx, events) => {
            await hooks.lockCart(trx, uid);
            const { count } = await trx
              .selectFrom('cart_item')
              .select((eb) => eb.fn.countAll<number | string>().as('count'))
              .where('uid', '=', uid)
              .executeTakeFirstOrThrow();
            if (Number(count) >= maxRows) return { ok: false, reason: 'full' } as const;
            const row: CartItemTable = {
              id: randomUUID(),
              uid,
              itemid: product.itemid,
              name: product.name,
              price_cents: product.priceCents,
              details: product.details,
              created_at: Date.now(),
            };
            await trx.insertInto('cart_item').values(row).execute();
            const item = toCartItem(row);
            await publish(trx, events, { uid, type: 'added', item });
            return { ok: true, item } as const;
          });
        } catch (error) {
          if (isConstraintViolation(error, 'foreignKey')) return { ok: false, reason: 'no-user' };
          throw error;
        }
      },

      async remove(uid, id) {
        return inTransaction(async (trx, events) => {
          const result = await trx
            .deleteFrom('cart_item')
            .where('id', '=', id)
            .where('uid', '=', uid)
            .executeTakeFirst();
          if (Number(result.numDeletedRows) === 0) return false;
          await publish(trx, events, { uid, type: 'removed', id });
          return true;
        });
      },
    },

    accounts: {
      async delete(uid) {
        await inTransaction(async (trx, events) => {
          const user = await trx.selectFrom('user').select('email').where('id', '=', uid).executeTakeFirst();
          await trx.deleteFrom('cart_item').where('uid', '=', uid).execute();
          await trx.deleteFrom('session').where('userId', '=', uid).execute();
          await trx.deleteFrom('account').where('userId', '=', uid).execute();
          if (user) await trx.deleteFrom('login_attempt').where('key', '=', emailKey(user.email)).execute();
          await trx.deleteFrom('user').where('id', '=', uid).execute();
          await publish(trx, events, { uid, type: 'sessions-changed' });
        });
      },

      async sessionsChanged(uid) {
        await inTransaction((trx, events) => publish(trx, events, { uid, type: 'sessions-changed' }));
      },
    },

    loginAttempts: {
      async hit(key, now, since) {
        // One statement: the increment and the read of the new count are atomic on both databases, so
        // parallel attempts each see a different count and no more than the limit get through.
        const row = await db
          .insertInto('login_attempt')
          .values({ key, failures: 1, window_started_at: now })
          .onConflict((oc) =>
            oc.column('key').doUpdateSet((eb) => {
              const expired = eb('login_attempt.window_started_at', '<=', since);
              return {
                failures: eb
                  .case()
                  .when(expired)
                  .then(1)
                  .else(eb('login_attempt.failures', '+', 1))
                  .end(),
                window_started_at: eb
                  .case()
                  .when(expired)
                  .then(now)
                  .else(eb.ref('login_attempt.window_started_at'))
                  .end(),
              };
            }),
          )
          .returning(['failures', 'window_started_at'])
          .executeTakeFirstOrThrow();
        return { count: Number(row.failures), windowStartedAt: Number(row.window_started_at) };
      },

      async giveBack(key) {
        await db
          .updateTable('login_attempt')
          .set((eb) => ({ failures: eb('failures', '-', 1) }))
          .where('key', '=', key)
          .where('failures', '>', 0)
          .execute();
      },

      async clear(keys) {
        if (keys.length > 0) await db.deleteFrom('login_attempt').where('key', 'in', keys).execute();
      },

      async prune(since) {
        await db.deleteFrom('login_attempt').where('window_started_at', '<=', since).execute();
      },
    },

    subscribe: (uid, listener) => hooks.subscribe(uid, listener),
    watchSessions: (watcher) => hooks.watchSessions(watcher),
    ping: () => ping(db),
    async close() {
      await hooks.close();
      await db.destroy();
    },
  };
}

/** The log-in counter key of an e-mail address; shared with the throttle so account deletion can clear it. */
export function emailKey(email: string): string {
  return `email:${email.toLowerCase()}`;
}
