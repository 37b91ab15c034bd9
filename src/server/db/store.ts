import type { CartItem } from '../../shared/api';
import type { Product } from '../../shared/catalogue';
import type { ChangeListener, SessionWatcher } from './change-feed';

export type AddResult = { ok: true; item: CartItem } | { ok: false; reason: 'full' | 'no-user' };

export interface CartStore {
  /** The user's items, oldest first. */
  list(uid: string): Promise<CartItem[]>;
  /** Adds one row copied from the catalogue, unless the cart already holds `maxRows`. */
  add(uid: string, product: Product, maxRows: number): Promise<AddResult>;
  /** Removes the row only if it is the user's; false when there is no such row. */
  remove(uid: string, id: string): Promise<boolean>;
}

export interface AccountStore {
  /** Removes the user, their sessions, accounts, cart items and log-in counters, in one transaction. */
  delete(uid: string): Promise<void>;
  /** Tells the user's open streams that some of their sessions have ended. */
  sessionsChanged(uid: string): Promise<void>;
}

export interface LoginAttemptStore {
  /**
   * Counts one attempt under `key` and returns the new count with its window's start, in one atomic step;
   * a window that started at or before `since` starts again at 1.
   */
  hit(key: string, now: number, since: number): Promise<{ count: number; windowStartedAt: number }>;
  /** Takes back one attempt counted under `key` (never below zero). */
  giveBack(key: string): Promise<void>;
  clear(keys: string[]): Promise<void>;
  /** Deletes every counter whose window started at or before `since`: they count for nothing any more. */
  prune(since: number): Promise<void>;
}

/** All data access of the routes goes through here, whatever the database. */
export interface Store {
  readonly cart: CartStore;
  readonly accounts: AccountStore;
  readonly loginAttempts: LoginAttemptStore;
  /** Live changes of one user's data, as seen by every server sharing the database. */
  subscribe(uid: string, listener: ChangeListener): () => void;
  /** Session changes of every user, as seen by every server sharing the database. */
  watchSessions(watcher: SessionWatcher): () => void;
  ping(): Promise<void>;
  close(): Promise<void>;
}
