import type { Context } from 'hono';
import type { AppEnv } from '../app-env';
import type { Device, DeviceCookies } from './device-cookie';
import type { Roles } from './roles';
import { forwardCookies, type Sessions, sessionUser } from './sessions';

/**
 * At every sign-up and log-in: a visitor's cart, if the browser has one, joins the account's cart once
 * (docs/product.md §23).
 */
export type TakeVisitorCart = (c: Context<AppEnv>, uid: string) => Promise<void>;

export interface LogInParts {
  sessions: Sessions;
  devices: DeviceCookies;
  roles: Roles;
  takeVisitorCart: TakeVisitorCart;
}

/** What Better Auth answers a log-in it has made: the cookies to set, the new session's token and the user. */
export interface MadeLogIn {
  headers: Headers;
  token: string;
  user: { id: string; email: string; emailVerified: boolean };
  /** The browser's device cookie for this e-mail, if it sent a valid one (it is renewed rather than replaced). */
  device?: Device;
}

/**
 * The end of every log-in, by password or by passkey (docs/product.md §4, §15): the session's client address
 * recorded, its cookies set, the browser remembered for the throttle, a visitor's cart taken into the account's, the
 * oldest sessions beyond the cap ended, and the answer `{ user, role }`.
 */
export async function finishLogIn(c: Context<AppEnv>, parts: LogInParts, made: MadeLogIn): Promise<Response> {
  const { sessions, devices, roles, takeVisitorCart } = parts;
  await sessions.started(c, made.token);
  forwardCookies(c, made.headers);
  await devices.issue(c, made.user.id, made.device);
  await takeVisitorCart(c, made.user.id);
  await sessions.keepNewest(made.user.id);
  return c.json({ user: sessionUser(made.user), role: await roles.of(made.user.id) });
}
