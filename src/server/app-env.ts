import type { SessionUser } from '../shared/api';

/** What the session middleware puts on the request context. */
export interface AppEnv {
  Variables: {
    user: SessionUser;
    sessionCreatedAt: Date;
  };
}
