import { createHash, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { limits } from '../../shared/limits';
import type { Db } from '../db/database';
import { addressGroup, clientAddress } from '../http/client-address';
import { HttpError } from '../http/errors';
import type { CartStore } from './cart-store';

/**
 * Visitors' carts (docs/product.md §23, docs/decisions/0055-open-to-visitors.md). A visitor's cart is known by a cookie
 * of its own holding 32 random bytes; the database keeps only their SHA-256, so a copy of the database opens no cart.
 * A cookie that names no cart here (forged, swept, from another shop) is no cart: the next add makes a new one.
 */
const cookieName = 'piaffe.cart';
/** Over https the name carries the `__Secure-` prefix, so that only a secure page can ever set it. */
const secureName = `__Secure-${cookieName}`;
const cookiePattern = /^[A-Za-z0-9_-]{43}$/;
/** How long a cart is kept after its last change, and so how long its cookie lives. */
const keptSeconds = 30 * 24 * 60 * 60;
/** The window new carts are counted in, per client address (`limits.visitorCartsPerHour`). */
const hourMs = 60 * 60 * 1000;

const idOf = (token: string) => createHash('sha256').update(token).digest('base64url');
/** The address a cart was made from, as the cap counts it: hashed, so the table keeps no client address. */
const addressKey = (group: string) => createHash('sha256').update(`visitor-cart ${group}`).digest('base64url');

export type VisitorCarts = ReturnType<typeof createVisitorCarts>;

export function createVisitorCarts(
  db: Db,
  cart: CartStore,
  { secure, trustProxy }: { secure: boolean; trustProxy: boolean },
) {
  const name = secure ? secureName : cookieName;

  /** The visitor's cart named by the request's cookie, when it names one this shop keeps. */
  async function find(c: Context): Promise<string | undefined> {
    const token = getCookie(c, name);
    if (token === undefined || !cookiePattern.test(token)) return undefined;
    const id = idOf(token);
    const row = await db.kysely.selectFrom('visitor_cart').select('id').where('id', '=', id).executeTakeFirst();
    return row?.id;
  }

  return {
    find,

    /**
     * The visitor's cart, made now (and its cookie set) when the request names none; at most
     * `limits.visitorCartsPerHour` new ones an hour from one client address (an IPv6 /64), counted in the database under the address's
     * lock, so ten requests at once count as ten on every server.
     */
    async findOrMake(c: Context): Promise<string> {
      const found = await find(c);
      if (found !== undefined) return found;
      const address = addressKey(addressGroup(clientAddress(c, trustProxy)));
      const token = randomBytes(32).toString('base64url');
      const id = idOf(token);
      const now = Date.now();
      const made = await db.run(async (uow) => {
        await uow.lock('visitor-carts', address);
        const [row] = await uow.trx
          .selectFrom('visitor_cart')
          .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.min('created_at').as('first')])
          .where('address', '=', address)
          .where('created_at', '>', now - hourMs)
          .execute();
        if (Number(row?.count ?? 0) >= limits.visitorCartsPerHour) {
          return { ok: false as const, retryAfter: Math.ceil((Number(row?.first) + hourMs - now) / 1000) };
        }
        await uow.trx.insertInto('visitor_cart').values({ id, address, created_at: now, changed_at: now }).execute();
        return { ok: true as const };
      });
      if (!made.ok) {
        throw new HttpError('cart/too-many-carts', undefined, { 'Retry-After': String(Math.max(1, made.retryAfter)) });
      }
      setCookie(c, name, token, {
        path: '/',
        httpOnly: true,
        sameSite: 'Lax',
        secure,
        maxAge: keptSeconds,
      });
      return id;
    },

    /**
     * At sign-up or log-in: the visitor's rows join the rider's cart, once (CartStore.join), and the cookie goes.
     * Nothing to do without a cart cookie.
     */
    async join(c: Context, uid: string): Promise<void> {
      const token = getCookie(c, name);
      if (token === undefined) return;
      deleteCookie(c, name, { path: '/', secure });
      if (!cookiePattern.test(token)) return;
      await cart.join(idOf(token), uid, limits.cartMaxRows);
    },

    /** Forgets the carts unchanged for 30 days (a housekeeping job); their rows go with them. */
    async sweep(now: number): Promise<number> {
      const result = await db.kysely
        .deleteFrom('visitor_cart')
        .where('changed_at', '<', now - keptSeconds * 1000)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
