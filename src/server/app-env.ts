import type { HttpBindings } from '@hono/node-server';
import type { Session } from './auth/session-cache';
import type { Logger } from './log';

/** The request context: Node's request and response, and what the middleware puts on it. */
export interface AppEnv {
  Bindings: HttpBindings;
  Variables: {
    /** The request's log: every line carries its request id. */
    log: Logger;
    /** Set by `sessions.require()`. */
    session: Session;
    /** The payment method of the order being placed, for the metrics (http/metrics.ts). */
    paymentMethod?: string;
  };
}
