import type { Session } from './auth/session-cache';
import type { Logger } from './log';

/** What the middleware puts on the request context. */
export interface AppEnv {
  Variables: {
    /** The request's log: every line carries its request id. */
    log: Logger;
    /** Set by `sessions.require()`. */
    session: Session;
  };
}
