/**
 * The tables of the shop itself (src/server/db/schema.ts has them all): its settings and their history, and the
 * outbox of e-mails.
 */

/** An e-mail, written with the change that causes it and sent later (docs/product.md §9). */
export interface OutboxTable {
  id: string;
  kind: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  state: string;
  attempts: number;
  /** When it may be tried next (epoch ms). */
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
  /** The one file it carries, if any (docs/decisions/0016-the-e-mail-outbox.md): all three set, or none. */
  attachment_name: string | null;
  attachment_type: string | null;
  attachment_bytes: Uint8Array | null;
}

/** The shop's settings: one row, the whole document as JSON (src/shared/settings.ts). */
export interface ShopSettingsTable {
  /** Always 1: the shop has one set of settings. */
  id: number;
  document: string;
  /** Goes up with every save: an owner's form filled from an older one is refused (`settings/changed`). */
  version: number;
  updated_at: number;
}

/** Every save of the settings: what changed, when, by whom. */
export interface SettingsChangeTable {
  seq: number;
  at: number;
  /** Null once the owner's account is gone; `by_email` stays. */
  by_uid: string | null;
  by_email: string;
  what: string;
}
