import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie } from 'hono/cookie';
import type { AccountSession, SessionUser } from '../../shared/api';
import { lastUseStepMinutes } from '../../shared/limits';
import type { AppEnv } from '../app-env';
import { topic } from '../db/change-feed';
import type { Db, UnitOfWork } from '../db/database';
import { clientAddress } from '../http/client-address';
import { HttpError } from '../http/errors';
import type { Logger } from '../log';
import { type Auth, recentLoginSeconds } from './auth';
import { type Roles, rolesTopic } from './roles';
import { type Session, SessionCache } from './session-cache';

export type { Session } from './session-cache';

/**
 * On every server: some of the user's sessions ended (log-out, a changed credential, deletion), or what the sessions
 * say of the user `changed` (the address confirmed or to be confirmed again).
 */
export type SessionChange = { type: 'ended' | 'changed'; uid: string };
export const sessionsTopic = topic<SessionChange>('sessions');

/**
 * The value of the first cookie called `name` in a Cookie header, as sent (Better Auth reads it the same way on a
 * cache miss); undefined when there is none.
 */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  const key = `${name}=`;
  for (let at = header.indexOf(key); at >= 0; at = header.indexOf(key, at + 1)) {
    // The name must start a pair: at the very start, or after "; " (or ";" alone).
    if (at === 0 || header[at - 1] === ';' || (header[at - 1] === ' ' && header[at - 2] === ';')) {
      const end = header.indexOf(';', at);
      const value = header.slice(at + key.length, end < 0 ? undefined : end).trim();
      return value || undefined;
    }
  }
  return undefined;
}

/** The user as our API shows it, from Better Auth's user. */
export function sessionUser(user: { id: string; email: string; emailVerified: boolean }): SessionUser {
  return { uid: user.id, email: user.email, emailConfirmed: user.emailVerified };
}

/** Copies the cookies Better Auth wants set (a new or refreshed session) onto our response. */
export function forwardCookies(c: Context, headers: Headers): void {
  for (const cookie of headers.getSetCookie()) c.header('Set-Cookie', cookie, { append: true });
}

/**
 * Told about a watched session: it has ended, or whether it has could not be checked (database down), or what it says
 * of its user has changed.
 */
export interface SessionWatcher {
  ended(): void;
  uncertain(): void;
  changed(): void;
}

export type Sessions = Awaited<ReturnType<typeof createSessions>>;

/** A user's live sessions (devices, browsers) at most; a new log-in ends the oldest beyond it. */
export const maxSessionsPerUser = 20;

export interface SessionOptions {
  /** Whether the client address is the last X-Forwarded-For entry (TRUST_PROXY=1) or the socket's peer. */
  trustProxy: boolean;
  cache?: SessionCache;
}

/** A date column of Better Auth's (an ISO string on SQLite, a Date on PostgreSQL) as epoch milliseconds. */
const epochMs = (date: Date | string): number => new Date(date).getTime();

/**
 * Everything about sessions after sign-in: recording where a new one came from, finding the request's session
 * (through a cache that every server's session ends invalidate) and when it was last used, listing and ending
 * sessions, and telling live streams when theirs has ended.
 */
export async function createSessions(
  auth: Auth,
  db: Db,
  roles: Roles,
  log: Logger,
  { trustProxy, cache = new SessionCache() }: SessionOptions,
) {
  const { authCookies } = await auth.$context;
  /** Live streams watching a session, by session id; and the watched sessions of each user. */
  const watchers = new Map<string, Set<SessionWatcher>>();
  const watchedOf = new Map<string, Set<string>>();

  function tell(id: string, what: keyof SessionWatcher): void {
    for (const watcher of [...(watchers.get(id) ?? [])]) watcher[what]();
  }

  /** One look-up for all the given sessions, however many streams watch each of them. */
  async function recheck(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    let alive: Set<string>;
    try {
      const rows = await db.kysely.selectFrom('session').select(['id', 'expiresAt']).where('id', 'in', ids).execute();
      const now = Date.now();
      alive = new Set(rows.filter((row) => new Date(row.expiresAt).getTime() > now).map((row) => row.id));
    } catch (err) {
      log.warn({ err }, 'could not check the sessions of live streams');
      for (const id of ids) tell(id, 'uncertain');
      return;
    }
    for (const id of ids) if (!alive.has(id)) tell(id, 'ended');
  }

  db.feed.subscribe(rolesTopic, (change) => {
    if (change.type === 'lost') cache.clear();
    else cache.forgetUser(change.uid);
  });

  // The cache forgets a user before anything else hears of the change, so a recheck never reads it stale.
  db.feed.subscribe(sessionsTopic, (change) => {
    if (change.type === 'lost') {
      cache.clear();
      // Changes may have been missed: ended sessions are found again, and every page asks for its session again.
      void recheck([...watchers.keys()]);
      for (const id of [...watchers.keys()]) tell(id, 'changed');
    } else {
      cache.forgetUser(change.uid);
      const watched = [...(watchedOf.get(change.uid) ?? [])];
      if (change.type === 'ended') void recheck(watched);
      else for (const id of watched) tell(id, 'changed');
    }
  });

  const cookieName = authCookies.sessionToken.name;

  /**
   * Writes down that the session is in use now. Not awaited by the request that found it: the last use is a hint
   * for the rider's list, never worth failing or slowing a request for.
   */
  function markUsed(id: string): void {
    db.kysely
      .updateTable('session')
      .set({ updatedAt: db.timestamp(new Date()) })
      .where('id', '=', id)
      .execute()
      .catch((err) => log.warn({ err }, "could not record a session's last use"));
  }

  /**
   * The session of the request's cookie; null when there is none or it has ended. The cookie is read from Node's
   * own headers, so that a cache hit costs no web `Headers` object and no parse of the other cookies.
   */
  async function find(c: Context<AppEnv>): Promise<Session | null> {
    const token = cookieValue(c.env.incoming.headers.cookie, cookieName);
    if (!token) return null;
    const cached = cache.get(token);
    if (cached) return cached;
    const epoch = cache.epoch;
    const { headers, response } = await auth.api.getSession({ headers: c.req.raw.headers, returnHeaders: true });
    forwardCookies(c, headers);
    if (!response) return null;
    // Looked at only on a cache miss (at most every 10 s per server), so one write per session every few minutes.
    if (Date.now() - epochMs(response.session.updatedAt) > lastUseStepMinutes * 60_000) markUsed(response.session.id);
    const found: Session = {
      id: response.session.id,
      user: sessionUser(response.user),
      role: await roles.of(response.user.id),
      createdAt: new Date(response.session.createdAt).getTime(),
      expiresAt: new Date(response.session.expiresAt).getTime(),
    };
    cache.set(token, found, epoch);
    return found;
  }

  return {
    find,

    /**
     * Records where a session just made by Better Auth (sign-up, log-in) came from: our client address, which
     * trusts X-Forwarded-For only behind our proxy (Better Auth's own guess trusts it always, so it is turned off
     * in auth.ts). Every route that makes a session calls this with the session's token before it answers.
     */
    async started(c: Context<AppEnv>, sessionToken: string): Promise<void> {
      await db.kysely
        .updateTable('session')
        .set({ ipAddress: clientAddress(c, trustProxy) })
        .where('token', '=', sessionToken)
        .execute();
    },

    /** The live sessions of `current`'s user, `current` first and then the most recently used; never their tokens. */
    async of(current: Session): Promise<AccountSession[]> {
      const rows = await db.kysely
        .selectFrom('session')
        .select(['id', 'userAgent', 'ipAddress', 'createdAt', 'updatedAt', 'expiresAt'])
        .where('userId', '=', current.user.uid)
        .execute();
      const now = Date.now();
      return rows
        .filter((row) => epochMs(row.expiresAt) > now)
        .map((row) => ({
          id: row.id,
          userAgent: row.userAgent ?? '',
          address: row.ipAddress ?? '',
          createdAt: new Date(row.createdAt).toISOString(),
          // The request's own session is in use right now, whatever its record says.
          lastUsedAt: new Date(row.id === current.id ? now : epochMs(row.updatedAt)).toISOString(),
          current: row.id === current.id,
        }))
        .sort((a, b) => Number(b.current) - Number(a.current) || b.lastUsedAt.localeCompare(a.lastUsedAt));
    },

    /**
     * Lets the request through only with a live session; `recent` also demands a log-in within 5 minutes, and
     * `owner` the owner's role, read from the database for each request (a role just taken away counts at once).
     */
    require(options: { recent?: boolean; owner?: boolean } = {}): MiddlewareHandler<AppEnv> {
      return async (c, next) => {
        const found = await find(c);
        if (!found) throw new HttpError('auth/unauthenticated');
        if (options.recent && Date.now() - found.createdAt > recentLoginSeconds * 1000) {
          throw new HttpError('auth/requires-recent-login');
        }
        if (options.owner && (await roles.of(found.user.uid)) !== 'owner') throw new HttpError('auth/forbidden');
        c.set('session', found);
        await next();
      };
    },

    /**
     * Ends sessions on the server, as part of `uow`: every session of `uid`, or only those in `only`, or all but
     * `except`; answers how many there were. Every server forgets them once the unit commits, and live streams on
     * them are told.
     */
    async end(uow: UnitOfWork, { uid, only, except }: { uid: string; only?: string[]; except?: string }) {
      let ending = uow.trx.deleteFrom('session').where('userId', '=', uid);
      if (only) ending = ending.where('id', 'in', only);
      if (except) ending = ending.where('id', '!=', except);
      const { numDeletedRows } = await ending.executeTakeFirstOrThrow();
      uow.publish(sessionsTopic, { type: 'ended', uid });
      return Number(numDeletedRows);
    },

    /** Ends the user's oldest sessions beyond `maxSessionsPerUser`. */
    async keepNewest(uid: string): Promise<void> {
      const rows = await db.kysely
        .selectFrom('session')
        .select('id')
        .where('userId', '=', uid)
        .orderBy('createdAt', 'desc')
        .orderBy('id', 'desc')
        .execute();
      const oldest = rows.slice(maxSessionsPerUser).map((row) => row.id);
      if (oldest.length > 0) await db.run((uow) => this.end(uow, { uid, only: oldest }));
    },

    /** Expires the browser's session cookies (after the sessions behind them have ended). */
    clearCookies(c: Context): void {
      for (const { name, attributes } of [
        authCookies.sessionToken,
        authCookies.sessionData,
        authCookies.dontRememberToken,
      ]) {
        deleteCookie(c, name, {
          path: attributes.path ?? '/',
          secure: attributes.secure,
          httpOnly: true,
          sameSite: 'Lax',
        });
      }
    },

    /** Tells `watcher` once `session` has ended, or could not be checked; the returned function stops watching. */
    watch(session: Session, watcher: SessionWatcher): () => void {
      const { id, user } = session;
      let ofSession = watchers.get(id);
      if (!ofSession) {
        ofSession = new Set();
        watchers.set(id, ofSession);
        let ofUser = watchedOf.get(user.uid);
        if (!ofUser) {
          ofUser = new Set();
          watchedOf.set(user.uid, ofUser);
        }
        ofUser.add(id);
      }
      ofSession.add(watcher);
      return () => {
        if (!ofSession.delete(watcher) || ofSession.size > 0) return;
        watchers.delete(id);
        const ofUser = watchedOf.get(user.uid);
        ofUser?.delete(id);
        if (ofUser?.size === 0) watchedOf.delete(user.uid);
      };
    },
  };
}
