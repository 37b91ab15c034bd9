import { useSyncExternalStore } from 'react';
import type { ReplyOf, SessionUser } from '../../shared/api';
import type { Role } from '../../shared/roles';
import { call, onUnauthenticated } from './api';
import { sessionFromPage } from './page-data';
import { clearHint, readHint, writeHint } from './session-hint';

/** A message carried to the signup-login page: a success notice (status) or a failure (alert). */
export interface Notice {
  kind: 'status' | 'alert';
  text: string;
}

export interface SessionState {
  /** Who is signed in: first from the stored hint, then as the server says. */
  user: SessionUser | null;
  /** Their role, once the server has said (it is not part of the stored hint). */
  role: Role | null;
  /** What the signup-login page should tell the user after a sign-out. */
  notice: Notice | null;
}

// The store lives outside React, so that the router's guards (loaders) and the components read one state. It starts
// from what the page's HTML says (the server's answer for this page load) or, without that, from the stored hint.
const stateOf = (session: ReplyOf<'session'> | null): SessionState => ({
  user: session?.user ?? null,
  role: session?.role ?? null,
  notice: null,
});
let state: SessionState =
  sessionFromPage === undefined ? { user: readHint(), role: null, notice: null } : stateOf(sessionFromPage);
if (sessionFromPage) writeHint(sessionFromPage.user);
else if (sessionFromPage === null) clearHint();
const listeners = new Set<() => void>();
// A 401 from a request that began before the latest sign-in is old news, not a sign-out.
let lastSignIn = Number.NEGATIVE_INFINITY;
// Likewise the start-up check must not undo a sign-in or sign-out that happened while it was under way.
let lastChange = Number.NEGATIVE_INFINITY;
// The page's HTML has answered the start-up check already.
let serverCheck: Promise<void> | undefined = sessionFromPage === undefined ? undefined : Promise.resolve();

function update(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

export function currentUser(): SessionUser | null {
  return state.user;
}

export function currentRole(): Role | null {
  return state.role;
}

/** Calls `listener` after every change of the session state; returns the unsubscribe function. */
export function subscribeToSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => state;

/** On the server too (src/client/server-render.tsx), where `serveSession` has just given it the request's session. */
export function useSession(): SessionState {
  return useSyncExternalStore(subscribeToSession, snapshot, snapshot);
}

/**
 * On the server, right before a page is rendered for a request, synchronously (src/client/server-render.tsx): who the
 * request's session says is signed in. Never in the browser, whose state comes from the page's HTML.
 */
export function serveSession(session: ReplyOf<'session'> | null): void {
  state = stateOf(session);
}

/** The server has said yes to a sign-up or log-in. */
export function signedIn(user: SessionUser, role: Role): void {
  lastSignIn = performance.now();
  lastChange = lastSignIn;
  writeHint(user);
  update({ user, role, notice: null });
}

/** Forgets the user in this browser; the guards then send guarded pages to signup-login. */
export function signedOut(notice?: Notice): void {
  lastChange = performance.now();
  clearHint();
  // A second sign-out (a live stream hearing of the first) keeps what the first had to say.
  update({ user: null, role: null, notice: notice ?? (state.user ? null : state.notice) });
}

/**
 * Ends the session: on the server first, then in this browser, with an optional notice for signup-login. A
 * failed log-out call still forgets the user here: nobody stays signed in because the server was unreachable.
 */
export async function endSession(notice?: Notice): Promise<void> {
  await call('logOut').catch(() => {});
  signedOut(notice);
}

onUnauthenticated((startedAt) => {
  if (startedAt >= lastSignIn) signedOut();
});

/**
 * Asks the server who is signed in, now. Settles when the answer is in: a session makes it the user, a 401 signs out
 * (through onUnauthenticated), and any other failure (server restarting, offline) keeps what the browser knew. A live
 * stream's `account` event asks again (the address confirmed, say).
 */
export async function refreshSession(): Promise<void> {
  const startedAt = performance.now();
  try {
    const { user, role } = await call('session');
    if (startedAt < lastChange) return;
    writeHint(user);
    update({ ...state, user, role });
  } catch {}
}

/**
 * Asks the server who is signed in, once per page load; every caller shares that one answer (`refreshSession`). The
 * page's HTML, when it says, is that answer.
 */
export function checkSession(): Promise<void> {
  serverCheck ??= refreshSession();
  return serverCheck;
}
