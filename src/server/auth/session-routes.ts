import { Hono } from 'hono';
import { endpoints } from '../../shared/api';
import type { AppEnv } from '../app-env';
import type { Db } from '../db/database';
import { HttpError } from '../http/errors';
import { rowIdPattern } from './auth';
import type { Sessions } from './sessions';

export interface SessionRouteParts {
  db: Db;
  sessions: Sessions;
}

/**
 * Where the rider is logged in (docs/product.md §4): the list of their sessions, and ending one or all the others.
 * A live session is enough, not a recent log-in: ending a session only ever takes access away
 * ([0027](../../../docs/decisions/0027-devices.md)). Every ending goes through `sessions.end`, so it reaches every
 * server's session cache and live streams.
 */
export function sessionRoutes({ db, sessions }: SessionRouteParts) {
  const live = sessions.require();
  return (
    new Hono<AppEnv>()
      .get(endpoints.accountSessions.path, live, async (c) => c.json({ sessions: await sessions.of(c.get('session')) }))

      // Another rider's session and one already gone get the same 404, so session ids cannot be probed. The unit
      // rolls back with it, so nothing is announced for a session that was not there.
      .delete(endpoints.endAccountSession.path, live, async (c) => {
        const { id, user } = c.get('session');
        const ending = c.req.param('id');
        if (!rowIdPattern.test(ending)) throw new HttpError('auth/session-not-found');
        await db.run(async (uow) => {
          if ((await sessions.end(uow, { uid: user.uid, only: [ending] })) === 0) {
            throw new HttpError('auth/session-not-found');
          }
        });
        if (ending === id) sessions.clearCookies(c);
        return c.body(null, 204);
      })

      .post(endpoints.endOtherSessions.path, live, async (c) => {
        const { id, user } = c.get('session');
        const ended = await db.run((uow) => sessions.end(uow, { uid: user.uid, except: id }));
        return c.json({ ended });
      })
  );
}
