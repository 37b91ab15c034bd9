import type { CartItem } from '../../shared/api';
import type { Product } from '../../shared/catalogue';
import type { ChangeListener } from './change-feed';

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
  /** The failure count and window start of each key whose window started after `since`. */
  failures(keys: string[], since: number): Promise<Map<string, { failures: number; windowStartedAt: number }>>;
  /** Counts one failure for each key; a window older than `since` starts again at 1. */
  recordFailure(keys: string[], now: number, since: number): Promise<void>;
  clear(keys: string[]): Promise<void>;
}

/** All data access of the routes goes through here, whatever the database. */
export interface Store {
  readonly cart: CartStore;
  readonly accounts: AccountStore;
  readonly loginAttempts: LoginAttemptStore;
  /** Live changes of one user's data, as seen by every server sharing the database. */
  subscribe(uid: string, listener: ChangeListener): () => void;
  ping(): Promise<void>;
  close(): Promise<void>;
}
