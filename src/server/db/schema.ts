import type { Generated } from 'kysely';

/** Our own tables. Better Auth's tables (user, session, account, verification) are its own business. */
export interface CartItemTable {
  id: string;
  uid: string;
  itemid: string;
  name: string;
  price_cents: number;
  details: string;
  created_at: number;
}

export interface LoginAttemptTable {
  key: string;
  failures: number;
  window_started_at: number;
}

export interface Database {
  cart_item: CartItemTable;
  login_attempt: LoginAttemptTable;
  user: { id: string; email: string };
  session: { id: string; userId: string; token: string; createdAt: Generated<Date> };
  account: { id: string; userId: string };
  verification: { id: string; identifier: string };
}
