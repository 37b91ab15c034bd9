import type { Generated } from 'kysely';

/** Our own tables. Better Auth's tables (user, session, account, verification) are its own business. */
/** One row of a rider's cart (`uid`) or of a visitor's (`visitor_cart_id`): never both, never neither. */
export interface CartItemTable {
  id: string;
  uid: string | null;
  visitor_cart_id: string | null;
  itemid: string;
  name: string;
  price_cents: number;
  details: string;
  /** The size chosen; null for rows added before the shop had sizes (migration 0007). */
  size: string | null;
  created_at: number;
}

/**
 * A visitor's cart (docs/product.md §23): its id is the SHA-256 of the random value of its cookie; `address` the
 * client address group it was made from (new carts are capped per address per hour); swept 30 days after `changed_at`.
 */
export interface VisitorCartTable {
  id: string;
  address: string;
  created_at: number;
  changed_at: number;
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

/** An order as placed (docs/product.md §8): what was bought is copied into it, never looked up later. */
export interface ShopOrderTable {
  number: number;
  /** Null once the account is deleted: the order stays, for the shop's books. */
  uid: string | null;
  /** The address the order was placed with. */
  email: string;
  idempotency_key: string;
  status: string;
  payment_method: string;
  /** shipping or collection (src/shared/delivery.ts). */
  delivery: string;
  full_name: string;
  line1: string;
  line2: string;
  city: string;
  region: string;
  postal_code: string;
  country: string;
  phone: string;
  /** The parts of the order's money (pricing.ts's OrderMoney but its total), as JSON. */
  money: string;
  total_cents: number;
  item_count: number;
  placed_at: number;
  /** A card order's payment at Stripe (a PaymentIntent's id), once paid. */
  payment_id: string | null;
  /** A card order's refund at Stripe, once refunded. */
  refund_id: string | null;
  /** When an owner asked Stripe for the refund; until the order is cancelled (or Stripe refuses), it cannot ship. */
  refund_started_at: number | null;
  /** Epoch ms until which one server talks to Stripe about this order's payment; null or past when none does. */
  card_lease_until: number | null;
  /**
   * A bank-transfer order reminded to pay: the end of the last day its reminder gave (epoch ms), after which the shop
   * cancels it unpaid; null until the reminder is sent (docs/decisions/0049-unpaid-bank-transfers.md).
   */
  pay_by: number | null;
}

/** A Stripe Checkout Session made for a card order; a rider's 'Pay now' makes another after closing the last. */
export interface CardSessionTable {
  id: string;
  order_number: number;
  url: string;
  created_at: number;
  /** open, expired or complete, as last seen at Stripe. */
  state: string;
}

/** A verified webhook event from Stripe, kept by its id, with what the shop made of it. */
export interface StripeEventTable {
  id: string;
  type: string;
  received_at: number;
  /** The order the event names (metadata.order or client_reference_id), as given. */
  order_ref: string | null;
  amount_cents: number | null;
  currency: string | null;
  /** What the shop did: paid, waiting, ignored or problem. */
  outcome: string;
  /** For the owner: why the event did not match, when it did not. */
  problem: string | null;
}

export interface OrderLineTable {
  order_number: number;
  /** 1, 2, ...: the order of the cart rows. */
  position: number;
  itemid: string;
  name: string;
  price_cents: number;
  /** The size bought in; null for lines of orders placed before the shop had sizes. */
  size: string | null;
  /** The key of the size its stock was taken from (`product_size.key`); null for lines from before keys. */
  size_key: string | null;
}

/** One change of an order's status, the placing included; never updated or deleted. */
export interface OrderEventTable {
  order_number: number;
  /** 1 for the placing, then 2, 3, ... */
  seq: number;
  status: string;
  at: number;
  by_role: string;
  /** Null once that account is deleted; `by_email` keeps who it was. */
  by_uid: string | null;
  by_email: string;
  note: string | null;
}

/** A named counter, bumped inside the transaction that uses its number: numbers without a gap, on either database. */
export interface CounterTable {
  name: string;
  value: number;
}

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

/** A size a product comes in, and how many of it are on the shelf (docs/product.md §12). */
export interface ProductSizeTable {
  itemid: string;
  size: string;
  /** Stays when the size is renamed: order lines name the size they took stock from by it. */
  key: string;
  /** 1, 2, ...: the size's place in the product's list. */
  position: number;
  /** Never below zero: a CHECK constraint holds it, whatever the code does. */
  stock: number;
}

/**
 * A rider's wait for a size out of stock (docs/product.md §27): by the size's key, which a rename keeps. Deleted when
 * the size's stock rises (its e-mail written in the same unit), when the rider cancels it, and with the rider or size.
 */
export interface StockWaitTable {
  id: string;
  uid: string;
  itemid: string;
  size_key: string;
  created_at: number;
}

/** Named number sequences: each a row of `counter`. */
export const sequences = { orderNumber: 'order_number' } as const;

/**
 * The numbers of a kind of document (an invoice, a credit note) issued in `year`: a row of `counter` that the year's
 * first document makes, so that each year's numbers start again from 1.
 */
export function yearlySequence(kind: 'invoice' | 'credit_note', year: number) {
  return `${kind}_${year}` as const;
}

export type Sequence = (typeof sequences)[keyof typeof sequences] | ReturnType<typeof yearlySequence>;

/** An invoice or a credit note (docs/product.md §20): what it states is kept when it is issued, and never changes. */
export interface InvoiceTable {
  /** `INV-2026-00001`, `CN-2026-00001`. */
  number: string;
  /** invoice or credit-note. */
  kind: string;
  order_number: number;
  issued_at: number;
  /** The month it was issued in, in the shop's time zone (`2026-11`): the back office lists and zips by it. */
  month: string;
  /** What it states (src/server/invoices/invoice-record.ts), as JSON. */
  record: string;
}

export interface ProductTable {
  itemid: string;
  /** Its place on the home page, from 1. */
  position: number;
  name: string;
  details: string;
  price_cents: number;
  /** The thumbnail's and the large picture's URLs: the first pictures' files, or an uploaded picture's. */
  /** As shipped, in grams (migration 0016): shipping by weight reads it. */
  weight_grams: number;
  pic: string;
  largepic: string;
  /** 1 on the home page, 0 hidden. */
  shown: number;
  version: number;
  updated_at: number;
  /** Its address, `/products/<slug>`, made from its name; the ones it had before lead to it too (`product_slug`). */
  slug: string;
  /** The owner's size guide for it (`SizeGuide` as JSON), or null: its first category's then. */
  size_guide: string | null;
}

/** Every slug a product has had, its current one included: each is one product's for ever. */
export interface ProductSlugTable {
  slug: string;
  itemid: string;
}

/** A category of products (docs/product.md §22), known in addresses by its slug. */
export interface CategoryTable {
  slug: string;
  name: string;
  /** Its place among the categories, from 1. */
  position: number;
  /** The size guide of its products (`SizeGuide` as JSON), or null. */
  size_guide: string | null;
}

export interface ProductCategoryTable {
  category: string;
  itemid: string;
}

/** A product's pictures in the owner's order, from 1; the first is also `product.pic` and `product.largepic`. */
export interface ProductPictureTable {
  itemid: string;
  position: number;
  pic: string;
  largepic: string;
}

/** The words of the search index, for forgiving a wrong letter (src/server/catalogue/search-index.ts). */
export interface SearchWordTable {
  word: string;
}

/** SQLite: each word of the vocabulary under itself and each of its one-letter deletions. */
export interface SearchVariantTable {
  variant: string;
  word: string;
}

export interface ProductChangeTable {
  itemid: string;
  seq: number;
  at: number;
  /** Null once the owner's account is gone; `by_email` stays. */
  by_uid: string | null;
  by_email: string;
  what: string;
}

export interface PictureTable {
  /** The SHA-256 of `bytes`, hex: the picture's URL changes with its content. */
  id: string;
  content_type: string;
  bytes: Uint8Array;
  /** When it was last uploaded: an unused picture is deleted a day after (src/server/catalogue/unused-pictures.ts). */
  created_at: number;
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

/** A discount code of the owner's (docs/product.md §16); its limits stay as made, `enabled` switches it. */
export interface DiscountCodeTable {
  id: string;
  /** As the owner wrote it; `code_key` is the same without case, unique. */
  code: string;
  code_key: string;
  /** percent, amount or free-shipping (src/shared/discounts.ts). */
  kind: string;
  /** The percentage, or the amount in cents; 0 for free shipping. */
  value: number;
  min_subtotal_cents: number | null;
  /** Days of the shop's time zone (the settings' `format.timeZone`), YYYY-MM-DD, both included. */
  first_day: string | null;
  last_day: string | null;
  max_uses: number | null;
  once_per_rider: number;
  enabled: number;
  /** Orders that used it and were not cancelled; never past `max_uses` (a CHECK holds it). */
  uses: number;
  created_at: number;
  created_by: string;
}

/** An order that used a discount code; `given_back_at` once the order was cancelled and gave its use back. */
export interface DiscountUseTable {
  order_number: number;
  discount_id: string;
  /** The address the order was placed with, lower-cased: 'Once per rider' counts by it. */
  email: string;
  /** The code's 'Once per rider', copied: the unique index covers only these uses. */
  once_per_rider: number;
  given_back_at: number | null;
}

export interface Tables {
  cart_item: CartItemTable;
  visitor_cart: VisitorCartTable;
  login_attempt: LoginAttemptTable;
  device_epoch: DeviceEpochTable;
  shop_order: ShopOrderTable;
  order_line: OrderLineTable;
  order_event: OrderEventTable;
  counter: CounterTable;
  outbox: OutboxTable;
  password_reset: PasswordResetTable;
  email_confirmation: EmailConfirmationTable;
  user_role: UserRoleTable;
  product_size: ProductSizeTable;
  stock_wait: StockWaitTable;
  card_session: CardSessionTable;
  stripe_event: StripeEventTable;
  product: ProductTable;
  product_change: ProductChangeTable;
  picture: PictureTable;
  shop_settings: ShopSettingsTable;
  settings_change: SettingsChangeTable;
  discount_code: DiscountCodeTable;
  discount_use: DiscountUseTable;
  invoice: InvoiceTable;
  product_slug: ProductSlugTable;
  category: CategoryTable;
  product_category: ProductCategoryTable;
  product_picture: ProductPictureTable;
  search_word: SearchWordTable;
  search_variant: SearchVariantTable;
  // Better Auth's tables, as far as we read and write them. Its dates are ISO strings on SQLite and
  // timestamps on PostgreSQL: write them with `Db.timestamp`.
  // `emailVerified` is 0/1 on SQLite, a boolean on PostgreSQL: write it with `Db.flag`.
  user: { id: string; email: string; emailVerified: boolean | number; updatedAt: Date | string };
  session: {
    id: string;
    userId: string;
    token: string;
    createdAt: Generated<Date>;
    expiresAt: Date | string;
    /** When the session was last used, to within `lastUseStepMinutes` (sessions.ts), or refreshed by Better Auth. */
    updatedAt: Date | string;
    /** The client address it was made from (`clientAddress`), written by `sessions.started`; null before that. */
    ipAddress: string | null;
    userAgent: string | null;
  };
  account: { id: string; userId: string; providerId: string; password: string | null; updatedAt: Date | string };
  passkey: { id: string; userId: string };
  verification: { id: string; identifier: string; expiresAt: Date | string };
}
