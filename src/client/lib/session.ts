import { createContext, useContext } from 'react';
import type { SessionUser } from '../../shared/api';

/** A message carried to the signup-login page: a success notice (status) or a failure (alert). */
export interface Notice {
  kind: 'status' | 'alert';
  text: string;
}

export interface Session {
  user: SessionUser | null;
  /** What the signup-login page should tell the user after a sign-out. */
  notice: Notice | null;
  signedIn(user: SessionUser): void;
  /** Forgets the user in this browser; guarded pages then go to signup-login. */
  signedOut(notice?: Notice): void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside the SessionProvider.');
  return session;
}
