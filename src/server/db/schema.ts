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

export interface DeviceEpochTable {
  uid: string;
  epoch: number;
}

export interface Tables {
  cart_item: CartItemTable;
  login_attempt: LoginAttemptTable;
  device_epoch: DeviceEpochTable;
  // Better Auth's tables, as far as we read and write them. Its dates are ISO strings on SQLite and
  // timestamps on PostgreSQL: write them with `Db.timestamp`.
  user: { id: string; email: string; updatedAt: Date | string };
  session: { id: string; userId: string; token: string; createdAt: Generated<Date>; expiresAt: Date | string };
  account: { id: string; userId: string; providerId: string; password: string | null; updatedAt: Date | string };
  verification: { id: string; identifier: string };
}
