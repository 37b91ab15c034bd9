import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { SessionUser } from '../../shared/api';
import { call, onUnauthenticated } from '../lib/api';
import { type Notice, type Session, SessionContext } from '../lib/session';
import { clearHint, readHint, writeHint } from '../lib/session-hint';

/** Holds who is signed in: first from the stored hint, then as the server says. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<SessionUser | null>(readHint);
  const [notice, setNotice] = useState<Notice | null>(null);
  // A 401 from a request that began before the latest sign-in is old news, not a sign-out.
  const lastSignIn = useRef(Number.NEGATIVE_INFINITY);
  // Likewise the start-up check must not undo a sign-in or sign-out that happened while it was under way.
  const lastChange = useRef(Number.NEGATIVE_INFINITY);

  const signedIn = useCallback((next: SessionUser) => {
    lastSignIn.current = performance.now();
    lastChange.current = lastSignIn.current;
    writeHint(next);
    setUser(next);
    setNotice(null);
  }, []);

  const signedOut = useCallback((next?: Notice) => {
    lastChange.current = performance.now();
    clearHint();
    setUser(null);
    setNotice(next ?? null);
  }, []);

  useEffect(
    () =>
      onUnauthenticated((startedAt) => {
        if (startedAt >= lastSignIn.current) signedOut();
      }),
    [signedOut],
  );

  useEffect(() => {
    const startedAt = performance.now();
    call('session').then(
      ({ user: current }) => {
        if (startedAt < lastChange.current) return;
        writeHint(current);
        setUser(current);
      },
      // A 401 is handled by the listener above; other failures (server restarting, offline) keep the hint.
      () => {},
    );
  }, []);

  const session = useMemo<Session>(() => ({ user, notice, signedIn, signedOut }), [user, notice, signedIn, signedOut]);
  return <SessionContext value={session}>{children}</SessionContext>;
}
