import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';

/**
 * The "device cookie" of OWASP's log-in throttling advice: after a successful log-in (or sign-up), the
 * browser gets a long-lived cookie that says "this browser has logged in as this e-mail before". Log-ins
 * that carry it for the e-mail they try are counted under the device's own key, not under the e-mail's or
 * the client address's, so an attacker who exhausts those does not lock this browser out.
 * See docs/decisions/0006-login-throttling.md.
 *
 * The value is `<id>.<mac>`: a random id and an HMAC-SHA256, keyed with a key derived from AUTH_SECRET,
 * over the normalised e-mail and the id. The e-mail is not in the cookie; a cookie is only good for the
 * e-mail it was issued for, and cannot be made without the secret.
 */
export const deviceCookieName = 'piaffe.device';
/** Over https the name carries the `__Secure-` prefix, so that only a secure page can ever set it. */
const secureName = `__Secure-${deviceCookieName}`;
/** Only the log-in route needs it. */
export const deviceCookiePath = '/api/auth/login';
export const deviceCookieMaxAgeSeconds = 180 * 24 * 60 * 60;

export type DeviceCookies = ReturnType<typeof createDeviceCookies>;

export function createDeviceCookies(authSecret: string, secure: boolean) {
  const name = secure ? secureName : deviceCookieName;
  // A key of its own, so that this MAC can never be confused with Better Auth's signatures.
  const key = createHmac('sha256', authSecret).update('piaffe device cookie v1').digest();
  const mac = (email: string, id: string) =>
    createHmac('sha256', key).update(`${email.toLowerCase()}\0${id}`).digest('base64url');
  const idPattern = /^[A-Za-z0-9_-]{22}$/;

  return {
    /** The device id when the request carries a cookie we issued for `email`; undefined otherwise. */
    verify(c: Context, email: string): string | undefined {
      const value = getCookie(c, name);
      if (!value || value.length > 100) return undefined;
      const [id = '', given = ''] = value.split('.');
      if (!idPattern.test(id)) return undefined;
      const expected = Buffer.from(mac(email, id));
      const actual = Buffer.from(given);
      return actual.length === expected.length && timingSafeEqual(actual, expected) ? id : undefined;
    },

    /** Marks this browser as a known device for `email`; keeps the id of a cookie that was already good. */
    issue(c: Context, email: string, id = randomBytes(16).toString('base64url')): void {
      setCookie(c, name, `${id}.${mac(email, id)}`, {
        path: deviceCookiePath,
        httpOnly: true,
        sameSite: 'Strict',
        secure,
        maxAge: deviceCookieMaxAgeSeconds,
      });
    },

    forget(c: Context): void {
      deleteCookie(c, name, { path: deviceCookiePath, httpOnly: true, sameSite: 'Strict', secure });
    },
  };
}
