/**
 * The database's tables as Kysely reads and writes them: `Tables`, the one index, with each table's row type in the
 * file of its area beside this one: `schema-accounts.ts` (sign-in and the riders' accounts), `schema-orders.ts` (carts,
 * orders, payments, invoices, discount codes), `schema-catalogue.ts` (products, stock, categories, pictures, search)
 * and `schema-shop.ts` (settings, the outbox). Our own tables are ours; Better Auth's tables (user, session, account,
 * verification) are its own business, and `Tables` names only what we read and write of them.
 */
import type { Generated } from 'kysely';
import type {
  DeviceEpochTable,
  EmailConfirmationTable,
  LoginAttemptTable,
  PasswordResetTable,
  UserRoleTable,
} from './schema-accounts';
import type {
  CategoryTable,
  PictureTable,
  ProductCategoryTable,
  ProductChangeTable,
  ProductPictureTable,
  ProductSizeTable,
  ProductSlugTable,
  ProductTable,
  SearchVariantTable,
  SearchWordTable,
  StockWaitTable,
} from './schema-catalogue';
import type {
  CardSessionTable,
  CartItemTable,
  CounterTable,
  DiscountCodeTable,
  DiscountUseTable,
  DocumentTaxTable,
  InvoiceTable,
  OrderEventTable,
  OrderLineTable,
  RefundTable,
  ReturnLineTable,
  ReturnRequestTable,
  ShopOrderTable,
  StripeEventTable,
  VisitorCartTable,
} from './schema-orders';
import type { OutboxTable, SettingsChangeTable, ShopSettingsTable } from './schema-shop';

export type {
  DeviceEpochTable,
  EmailConfirmationTable,
  LoginAttemptTable,
  PasswordResetTable,
  UserRoleTable,
} from './schema-accounts';
export type {
  CategoryTable,
  PictureTable,
  ProductCategoryTable,
  ProductChangeTable,
  ProductPictureTable,
  ProductSizeTable,
  ProductSlugTable,
  ProductTable,
  SearchVariantTable,
  SearchWordTable,
  StockWaitTable,
} from './schema-catalogue';
export {
  type CardSessionTable,
  type CartItemTable,
  type CounterTable,
  type DiscountCodeTable,
  type DiscountUseTable,
  type DocumentTaxTable,
  type InvoiceTable,
  type OrderEventTable,
  type OrderLineTable,
  type RefundTable,
  type ReturnLineTable,
  type ReturnRequestTable,
  type Sequence,
  type ShopOrderTable,
  type StripeEventTable,
  sequences,
  type VisitorCartTable,
  yearlySequence,
} from './schema-orders';
export type { OutboxTable, SettingsChangeTable, ShopSettingsTable } from './schema-shop';

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
  document_tax: DocumentTaxTable;
  return_request: ReturnRequestTable;
  return_line: ReturnLineTable;
  refund: RefundTable;
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
