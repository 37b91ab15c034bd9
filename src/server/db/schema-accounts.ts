/**
 * The tables of riders' accounts and signing in (src/server/db/schema.ts has them all): throttled log-ins,
 * devices' epochs, password-reset and confirmation links, roles. Better Auth's own tables are in `Tables` itself.
 */

export interface LoginAttemptTable {
  key: string;
  failures: number;
  window_started_at: number;
}

export interface DeviceEpochTable {
  uid: string;
  epoch: number;
}

/** A password-reset link: only the SHA-256 of its token is kept (docs/product.md §10). */
export interface PasswordResetTable {
  token_hash: string;
  uid: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A link that confirms an address (docs/product.md §15): only the SHA-256 of its token is kept. */
export interface EmailConfirmationTable {
  token_hash: string;
  uid: string;
  /** The address the link was sent to: it confirms nothing once the account has another. */
  email: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** The users with a role beyond rider; today only `owner` (docs/product.md §11). */
export interface UserRoleTable {
  uid: string;
  role: string;
}
