import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Db, UnitOfWork } from '../db/database';

/**
 * The "device cookie" of OWASP's log-in throttling advice: after a successful log-in (or sign-up), the
 * browser gets a long-lived cookie that says "this browser has logged in to this account before". Log-ins
 * that carry a valid one for the account they try are counted under the device's own key, not under the
 * e-mail's or the client address's, so an attacker who exhausts those does not lock this browser out.
 * See docs/decisions/0006-login-throttling.md.
 *
 * The value is `<id>.<uid>.<epoch>.<mac>`: a random id, the account's id, the account's device epoch when the
 * cookie was issued, and an HMAC-SHA256 over the three, keyed with a key derived from AUTH_SECRET. A cookie
 * vouches only for the account it names, only while that account exists, and only until the account's epoch
 * moves on: a changed password or e-mail (`revokeAll`) ends every device cookie issued before.
 */
const deviceCookieName = 'piaffe.device';
/** Over https the name carries the `__Secure-` prefix, so that only a secure page can ever set it. */
const secureName = `__Secure-${deviceCookieName}`;
/** Only the log-in route needs it. */
const deviceCookiePath = '/api/auth/login';
const deviceCookieMaxAgeSeconds = 180 * 24 * 60 * 60;
const cookiePattern = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{1,64})\.(\d{1,9})\.([A-Za-z0-9_-]{43})$/;

/** A verified device: its id, for the throttle, and whom it vouches for. */
export interface Device {
  id: string;
  uid: string;
  epoch: number;
}

export type DeviceCookies = ReturnType<typeof createDeviceCookies>;

export function createDeviceCookies(authSecret: string, secure: boolean, db: Db) {
  const name = secure ? secureName : deviceCookieName;
  // A key of its own, so that this MAC can never be confused with Better Auth's signatures.
  const key = createHmac('sha256', authSecret).update('piaffe device cookie v2').digest();
  const mac = (id: string, uid: string, epoch: number) =>
    createHmac('sha256', key).update(`${id}\0${uid}\0${epoch}`).digest('base64url');

  /** The account behind `email` and its current device epoch (0 before the first revocation). */
  async function accountOf(email: string): Promise<{ uid: string; epoch: number } | undefined> {
    const row = await db.kysely
      .selectFrom('user')
      .leftJoin('device_epoch', 'device_epoch.uid', 'user.id')
      .select(['user.id as uid', 'device_epoch.epoch'])
      .where('user.email', '=', email.toLowerCase())
      .executeTakeFirst();
    return row && { uid: row.uid, epoch: Number(row.epoch ?? 0) };
  }

  return {
    /** The device when the request carries a cookie we issued for the account of `email`, still good; else undefined. */
    async verify(c: Context, email: string): Promise<Device | undefined> {
      const value = getCookie(c, name);
      const [, id = '', uid = '', epochText = '', given = ''] = cookiePattern.exec(value ?? '') ?? [];
      if (!id) return undefined;
      const epoch = Number(epochText);
      const expected = Buffer.from(mac(id, uid, epoch));
      const actual = Buffer.from(given);
      if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return undefined;
      const account = await accountOf(email);
      return account?.uid === uid && account.epoch === epoch ? { id, uid, epoch } : undefined;
    },

    /** Marks this browser as a known device of the account; keeps the id of a device that was already good. */
    async issue(c: Context, uid: string, device?: Device): Promise<void> {
      const row = await db.kysely.selectFrom('device_epoch').select('epoch').where('uid', '=', uid).executeTakeFirst();
      const epoch = Number(row?.epoch ?? 0);
      const id = device?.uid === uid ? device.id : randomBytes(16).toString('base64url');
      setCookie(c, name, `${id}.${uid}.${epoch}.${mac(id, uid, epoch)}`, {
        path: deviceCookiePath,
        httpOnly: true,
        sameSite: 'Strict',
        secure,
        maxAge: deviceCookieMaxAgeSeconds,
      });
    },

    /** Ends every device cookie of the account issued so far, as part of `uow`. */
    async revokeAll(uow: UnitOfWork, uid: string): Promise<void> {
      await uow.trx
        .insertInto('device_epoch')
        .values({ uid, epoch: 1 })
        .onConflict((oc) => oc.column('uid').doUpdateSet((eb) => ({ epoch: eb('device_epoch.epoch', '+', 1) })))
        .execute();
    },

    forget(c: Context): void {
      deleteCookie(c, name, { path: deviceCookiePath, httpOnly: true, sameSite: 'Strict', secure });
    },
  };
}
