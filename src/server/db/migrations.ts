import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import { createSearchTables, indexProduct } from '../catalogue/search-index';
import { freeSlug, slugOf } from '../catalogue/slugs';
import { firstCatalogue } from './first-catalogue';
import { firstCategories } from './first-categories';
import { firstAccess, firstCancelUnpaid, firstFormat, firstSettings, firstShipping, firstTax } from './first-settings';
import type { Dialect } from './open';
import { sequences, type Tables } from './schema';
import { shopAddressParts } from './shop-address-migration';

/**
 * The sizes of docs/product.md §12 and their first stock, by item number, as migration 0007 seeded them. Part of
 * that migration: never edit it (the owner changes sizes and stock in the shop, not here).
 */
export const firstSizes: Readonly<Record<string, { sizes: readonly string[]; stock: number }>> = {
  '1': { sizes: ['Pony', 'Cob', 'Full', 'Warmblood'], stock: 5 },
  '2': { sizes: ['16.5"', '17"', '17.5"', '18"'], stock: 2 },
  '3': { sizes: ['6', '7', '8', '9', '10', '11'], stock: 5 },
  '4': { sizes: ['XS', 'S', 'M', 'L', 'XL'], stock: 5 },
  '5': { sizes: ['6', '7', '8', '9', '10', '11'], stock: 5 },
  '6': { sizes: ['Pony', 'Cob', 'Full'], stock: 5 },
  '7': { sizes: ['XS', 'S', 'M', 'L', 'XL'], stock: 5 },
  '8': { sizes: ['Pony', 'Cob', 'Full', 'Warmblood'], stock: 5 },
};

/**
 * The eight products' weights as shipped, in grams, by item number, as migration 0016 set them. Part of that
 * migration: never edit it (the owner sets weights in the back office).
 */
export const firstWeights: Readonly<Record<string, number>> = {
  '1': 900,
  '2': 7000,
  '3': 2300,
  '4': 1400,
  '5': 2100,
  '6': 700,
  '7': 1500,
  '8': 850,
};

/**
 * The first order number, as migration 0003 started the numbers: part of that migration, never the live settings
 * (a shop that changes its settings later must not change what an old migration did).
 */
export const firstOrderNumber = 10001;

/** Our schema, in order. Never edit a migration that has shipped; add a new one. */
const migrations = (dialect: Dialect): Record<string, Migration> => ({
  '0001-cart-and-login-attempts': {
    async up(db) {
      await db.schema
        .createTable('cart_item')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('uid', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('itemid', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('price_cents', 'integer', (c) => c.notNull())
        .addColumn('details', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('cart_item_uid_created_at').on('cart_item').columns(['uid', 'created_at']).execute();
      await db.schema
        .createTable('login_attempt')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('window_started_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '0002-device-epoch': {
    async up(db) {
      // Bumping a user's epoch invalidates every device cookie issued before (src/server/auth/device-cookie.ts).
      await db.schema
        .createTable('device_epoch')
        .addColumn('uid', 'text', (c) => c.primaryKey().references('user.id').onDelete('cascade'))
        .addColumn('epoch', 'integer', (c) => c.notNull())
        .execute();
    },
  },
  '0003-orders': {
    async up(db) {
      // Order numbers: a sequence on PostgreSQL; on SQLite, whose one writer runs one transaction at a time, a
      // counter row bumped in the placing transaction. `UnitOfWork.next` reads either.
      if (dialect === 'postgres') {
        await sql`create sequence ${sql.id(sequences.orderNumber)} start with ${sql.lit(firstOrderNumber)}`.execute(db);
      } else {
        await db.schema
          .createTable('counter')
          .addColumn('name', 'text', (c) => c.primaryKey())
          .addColumn('value', 'integer', (c) => c.notNull())
          .execute();
        await db
          .insertInto('counter')
          .values({ name: sequences.orderNumber, value: firstOrderNumber - 1 })
          .execute();
      }
      await db.schema
        .createTable('shop_order')
        .addColumn('number', 'integer', (c) => c.primaryKey())
        // Set to null when the account is deleted: the order stays, for the shop's books.
        .addColumn('uid', 'text', (c) => c.references('user.id').onDelete('set null'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('idempotency_key', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('payment_method', 'text', (c) => c.notNull())
        .addColumn('full_name', 'text', (c) => c.notNull())
        .addColumn('line1', 'text', (c) => c.notNull())
        .addColumn('line2', 'text', (c) => c.notNull())
        .addColumn('city', 'text', (c) => c.notNull())
        .addColumn('region', 'text', (c) => c.notNull())
        .addColumn('postal_code', 'text', (c) => c.notNull())
        .addColumn('country', 'text', (c) => c.notNull())
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('subtotal_cents', 'integer', (c) => c.notNull())
        .addColumn('shipping_cents', 'integer', (c) => c.notNull())
        .addColumn('total_cents', 'integer', (c) => c.notNull())
        .addColumn('item_count', 'integer', (c) => c.notNull())
        .addColumn('placed_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('shop_order_uid_idempotency_key', ['uid', 'idempotency_key'])
        .execute();
      await db.schema.createIndex('shop_order_uid_number').on('shop_order').columns(['uid', 'number']).execute();
      await db.schema.createIndex('shop_order_status_number').on('shop_order').columns(['status', 'number']).execute();
      await db.schema.createIndex('shop_order_email').on('shop_order').column('email').execute();
      await db.schema.createIndex('shop_order_placed_at').on('shop_order').column('placed_at').execute();
      await db.schema
        .createTable('order_line')
        .addColumn('order_number', 'integer', (c) => c.notNull().references('shop_order.number'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('itemid', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('price_cents', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('order_line_pk', ['order_number', 'position'])
        .execute();
      await db.schema
        .createTable('order_event')
        .addColumn('order_number', 'integer', (c) => c.notNull().references('shop_order.number'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('by_role', 'text', (c) => c.notNull())
        .addColumn('by_uid', 'text', (c) => c.references('user.id').onDelete('set null'))
        .addColumn('by_email', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addPrimaryKeyConstraint('order_event_pk', ['order_number', 'seq'])
        .execute();
    },
  },
  '0004-outbox': {
    async up(db) {
      await db.schema
        .createTable('outbox')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('text_body', 'text', (c) => c.notNull())
        .addColumn('html_body', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('sent_at', 'bigint')
        .execute();
      await db.schema.createIndex('outbox_state_next').on('outbox').columns(['state', 'next_attempt_at']).execute();
      await db.schema.createIndex('outbox_created_at').on('outbox').column('created_at').execute();
    },
  },
  '0005-password-reset': {
    async up(db) {
      await db.schema
        .createTable('password_reset')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('uid', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema.createIndex('password_reset_uid').on('password_reset').column('uid').execute();
      await db.schema.createIndex('password_reset_expires_at').on('password_reset').column('expires_at').execute();
    },
  },
  '0006-owner-role': {
    async up(db) {
      await db.schema
        .createTable('user_role')
        .addColumn('uid', 'text', (c) => c.primaryKey().references('user.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0007-sizes-and-stock': {
    async up(db) {
      await db.schema
        .createTable('product_size')
        .addColumn('itemid', 'text', (c) => c.notNull())
        .addColumn('size', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        // The database, not the code, keeps stock from going below zero (docs/decisions/0022-stock.md).
        .addColumn('stock', 'integer', (c) => c.notNull().check(sql`stock >= 0`))
        .addPrimaryKeyConstraint('product_size_pk', ['itemid', 'size'])
        .execute();
      await db
        .insertInto('product_size')
        .values(
          Object.entries(firstSizes).flatMap(([itemid, { sizes, stock }]) =>
            sizes.map((size, index) => ({ itemid, size, position: index + 1, stock })),
          ),
        )
        .execute();
      // Rows and lines from before sizes keep a null size: they stay readable, and checkout asks for a size.
      await db.schema.alterTable('cart_item').addColumn('size', 'text').execute();
      await db.schema.alterTable('order_line').addColumn('size', 'text').execute();
    },
  },
  '0008-card-payments': {
    async up(db) {
      // A card order's payment at Stripe (docs/decisions/0023-card-payments.md): its id once paid, its refund's
      // once refunded (and when the refund was asked for), and the lease of the server now talking to Stripe about it.
      await db.schema.alterTable('shop_order').addColumn('payment_id', 'text').execute();
      await db.schema.alterTable('shop_order').addColumn('refund_id', 'text').execute();
      await db.schema.alterTable('shop_order').addColumn('refund_started_at', 'bigint').execute();
      await db.schema.alterTable('shop_order').addColumn('card_lease_until', 'bigint').execute();
      await db.schema
        .createTable('card_session')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('order_number', 'integer', (c) => c.notNull().references('shop_order.number'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('card_session_order').on('card_session').column('order_number').execute();
      // Every verified webhook event, by Stripe's id: one delivered twice, or to two servers, is acted on once.
      await db.schema
        .createTable('stripe_event')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('received_at', 'bigint', (c) => c.notNull())
        .addColumn('order_ref', 'text')
        .addColumn('amount_cents', 'bigint')
        .addColumn('currency', 'text')
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('problem', 'text')
        .execute();
      await db.schema.createIndex('stripe_event_received').on('stripe_event').column('received_at').execute();
    },
  },
  '0009-owners-catalogue': {
    async up(db) {
      // The products, out of the code and into the owner's hands (docs/decisions/0024-owners-catalogue.md). `version`
      // goes up with every change: an owner's form that was filled from an older one is told the product changed.
      await db.schema
        .createTable('product')
        .addColumn('itemid', 'text', (c) => c.primaryKey())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('details', 'text', (c) => c.notNull())
        .addColumn('price_cents', 'integer', (c) => c.notNull().check(sql`price_cents > 0`))
        .addColumn('pic', 'text', (c) => c.notNull())
        .addColumn('largepic', 'text', (c) => c.notNull())
        .addColumn('shown', 'integer', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      const now = Date.now();
      await db
        .insertInto('product')
        .values(
          firstCatalogue.map((product, index) => ({
            itemid: product.itemid,
            position: index + 1,
            name: product.name,
            details: product.details,
            price_cents: product.priceCents,
            pic: product.pic,
            largepic: product.largepic,
            shown: 1,
            version: 1,
            updated_at: now,
          })),
        )
        .execute();
      // Each product's history: what changed, when, by whom.
      await db.schema
        .createTable('product_change')
        .addColumn('itemid', 'text', (c) => c.notNull().references('product.itemid'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('by_uid', 'text', (c) => c.references('user.id').onDelete('set null'))
        .addColumn('by_email', 'text', (c) => c.notNull())
        .addColumn('what', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('product_change_pk', ['itemid', 'seq'])
        .execute();
      // A size's key stays when the owner renames it; an order line keeps the key of the size it took stock from, so
      // that a cancel gives the stock back to that size whatever it is called by then. The first sizes' keys are
      // their first names; a new size gets a random one.
      await db.schema.alterTable('product_size').addColumn('key', 'text').execute();
      await db
        .updateTable('product_size')
        .set((eb) => ({ key: eb.ref('size') }))
        .execute();
      await db.schema.createIndex('product_size_key').on('product_size').columns(['itemid', 'key']).unique().execute();
      await db.schema.alterTable('order_line').addColumn('size_key', 'text').execute();
      // Uploaded pictures, by the hash of their bytes: every server has them, and one backup holds the whole shop.
      await db.schema
        .createTable('picture')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('bytes', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '0010-email-confirmation': {
    async up(db) {
      // Links that confirm an address (docs/decisions/0025-confirmed-addresses.md): only the token's SHA-256, and the
      // address the link was sent to, which must still be the account's when it is opened.
      await db.schema
        .createTable('email_confirmation')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('uid', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema.createIndex('email_confirmation_uid').on('email_confirmation').column('uid').execute();
      await db.schema
        .createIndex('email_confirmation_expires_at')
        .on('email_confirmation')
        .column('expires_at')
        .execute();
      // Accounts that exist when this ships count as confirmed (docs/product.md §15).
      await db
        .updateTable('user')
        .set({ emailVerified: dialect === 'postgres' ? true : 1 })
        .execute();
    },
  },
  '0011-passkeys': {
    async up(db) {
      // Better Auth makes the `passkey` table from its plugin's schema, as it makes its other tables (connect.ts), with
      // a plain index on the credential id. WebAuthn asks a shop to refuse a credential id already registered, to
      // anyone: the database refuses it (docs/decisions/0026-passkeys.md).
      await db.schema
        .createIndex('passkey_credential_id_unique')
        .on('passkey')
        .column('credentialID')
        .unique()
        .execute();
    },
  },
  '0012-order-money-and-delivery': {
    async up(db) {
      // An order's money becomes one value (docs/decisions/0032-an-orders-money.md): its parts as JSON beside the
      // total, with room for adjustments and tax lines; the two columns of parts go. Its delivery is its own, apart
      // from its payment: an order paid on collection was collected.
      await db.schema
        .alterTable('shop_order')
        .addColumn('delivery', 'text', (c) => c.notNull().defaultTo('shipping'))
        .execute();
      await db
        .updateTable('shop_order')
        .set({ delivery: 'collection' })
        .where('payment_method', '=', 'collection')
        .execute();
      await db.schema
        .alterTable('shop_order')
        .addColumn('money', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
      await sql`update shop_order set money = '{"subtotalCents":' || subtotal_cents || ',"shippingCents":' || shipping_cents || '}'`.execute(
        db,
      );
      await db.schema.alterTable('shop_order').dropColumn('subtotal_cents').execute();
      await db.schema.alterTable('shop_order').dropColumn('shipping_cents').execute();
    },
  },
  '0013-gapless-counters': {
    async up(db) {
      // PostgreSQL's sequence skips the numbers of rolled-back transactions; a counter row, as SQLite has had since
      // 0003, gives them back. It starts where the sequence is (the last number given, or one before the first).
      if (dialect !== 'postgres') return;
      await db.schema
        .createTable('counter')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'integer', (c) => c.notNull())
        .execute();
      const name = sql.lit(sequences.orderNumber);
      await sql`insert into counter (name, value) select ${name}, case when is_called then last_value else last_value - 1 end from ${sql.id(sequences.orderNumber)}`.execute(
        db,
      );
      await sql`drop sequence ${sql.id(sequences.orderNumber)}`.execute(db);
    },
  },
  '0014-outbox-attachments': {
    async up(db) {
      // An e-mail may carry one file (an invoice's PDF), kept with it in the outbox until sent, and after.
      await db.schema.alterTable('outbox').addColumn('attachment_name', 'text').execute();
      await db.schema.alterTable('outbox').addColumn('attachment_type', 'text').execute();
      await db.schema
        .alterTable('outbox')
        .addColumn('attachment_bytes', dialect === 'postgres' ? 'bytea' : 'blob')
        .execute();
    },
  },
  '0015-shop-settings': {
    async up(db) {
      // The shop's settings, out of the code and into the owner's hands (docs/decisions/0034-the-shops-settings.md):
      // one row holding the whole document, started from what the code fixed, and the history of its saves.
      await db.schema
        .createTable('shop_settings')
        .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
        .addColumn('document', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db
        .insertInto('shop_settings')
        .values({ id: 1, document: JSON.stringify(firstSettings), version: 1, updated_at: Date.now() })
        .execute();
      await db.schema
        .createTable('settings_change')
        .addColumn('seq', 'integer', (c) => c.primaryKey())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('by_uid', 'text', (c) => c.references('user.id').onDelete('set null'))
        .addColumn('by_email', 'text', (c) => c.notNull())
        .addColumn('what', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0016-product-weights': {
    async up(db) {
      // Each product's weight as shipped (docs/product.md §18: shipping by weight): the eight start with theirs, a product
      // added since with none until the owner gives it one.
      await db.schema
        .alterTable('product')
        .addColumn('weight_grams', 'integer', (c) => c.notNull().defaultTo(0).check(sql`weight_grams >= 0`))
        .execute();
      for (const [itemid, grams] of Object.entries(firstWeights)) {
        await db.updateTable('product').set({ weight_grams: grams }).where('itemid', '=', itemid).execute();
      }
    },
  },
  '0017-finding-products': {
    async up(db) {
      // Categories, slugs, pictures, size guides and the search index (docs/decisions/0036-finding-products.md).
      await db.schema
        .createTable('category')
        .addColumn('slug', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('size_guide', 'text')
        .execute();
      await db.schema
        .createTable('product_category')
        .addColumn('category', 'text', (c) => c.notNull().references('category.slug').onDelete('cascade'))
        .addColumn('itemid', 'text', (c) => c.notNull().references('product.itemid'))
        .addPrimaryKeyConstraint('product_category_pk', ['category', 'itemid'])
        .execute();
      await db.schema.createIndex('product_category_itemid').on('product_category').column('itemid').execute();
      // A product's slug is its address; every slug it ever had stays its own, so that old links lead to it.
      await db.schema.alterTable('product').addColumn('slug', 'text').execute();
      await db.schema.alterTable('product').addColumn('size_guide', 'text').execute();
      await db.schema
        .createTable('product_slug')
        .addColumn('slug', 'text', (c) => c.primaryKey())
        .addColumn('itemid', 'text', (c) => c.notNull().references('product.itemid'))
        .execute();
      await db.schema.createIndex('product_shown_position').on('product').columns(['shown', 'position']).execute();
      await db.schema.createIndex('product_size_size').on('product_size').columns(['size', 'itemid']).execute();
      // A product's pictures in the owner's order: the first is the card's (product.pic and largepic, kept in step).
      await db.schema
        .createTable('product_picture')
        .addColumn('itemid', 'text', (c) => c.notNull().references('product.itemid'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('pic', 'text', (c) => c.notNull())
        .addColumn('largepic', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('product_picture_pk', ['itemid', 'position'])
        .execute();
      await sql`insert into product_picture (itemid, position, pic, largepic) select itemid, 1, pic, largepic from product`.execute(
        db,
      );
      const products = await db.selectFrom('product').select(['itemid', 'name']).execute();
      const taken = new Set<string>();
      for (const { itemid, name } of products) {
        const slug = await freeSlug(slugOf(name), (s) => taken.has(s));
        taken.add(slug);
        await db.updateTable('product').set({ slug }).where('itemid', '=', itemid).execute();
        await db.insertInto('product_slug').values({ slug, itemid }).execute();
      }
      await db.schema.createIndex('product_slug_unique').on('product').column('slug').unique().execute();
      await db
        .insertInto('category')
        .values(
          firstCategories.map((category, index) => ({
            slug: category.slug,
            name: category.name,
            position: index + 1,
            size_guide: JSON.stringify(category.sizeGuide),
          })),
        )
        .execute();
      const itemids = new Set(products.map((p) => p.itemid));
      const placed = firstCategories.flatMap((category) =>
        category.itemids.filter((itemid) => itemids.has(itemid)).map((itemid) => ({ category: category.slug, itemid })),
      );
      if (placed.length > 0) await db.insertInto('product_category').values(placed).execute();
      await createSearchTables(db, dialect);
      const rows = await db.selectFrom('product').select('itemid').execute();
      for (const { itemid } of rows) await indexProduct(db, dialect, itemid);
    },
  },
  '0019-invoices': {
    async up(db) {
      // Invoices and credit notes (docs/decisions/0038-invoices.md): numbered from counter rows made by each year's
      // first document; at most one of each kind for an order, whatever delivers the event that issues it twice.
      await db.schema
        .createTable('invoice')
        .addColumn('number', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('order_number', 'integer', (c) => c.notNull().references('shop_order.number'))
        .addColumn('issued_at', 'bigint', (c) => c.notNull())
        .addColumn('month', 'text', (c) => c.notNull())
        .addColumn('record', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('invoice_order_kind')
        .on('invoice')
        .columns(['order_number', 'kind'])
        .unique()
        .execute();
      await db.schema.createIndex('invoice_month').on('invoice').columns(['month', 'issued_at']).execute();
    },
  },
  '0021-discount-codes': {
    async up(db) {
      // Discount codes (docs/decisions/0039-discount-codes.md). The database holds the count: `uses` goes up by a
      // conditional update in the order's own transaction, never past `max_uses`, and a CHECK holds it there whatever
      // the code does. `code_key` is the code without case, unique.
      await db.schema
        .createTable('discount_code')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('code_key', 'text', (c) => c.notNull().unique())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('value', 'integer', (c) => c.notNull())
        .addColumn('min_subtotal_cents', 'integer')
        .addColumn('first_day', 'text')
        .addColumn('last_day', 'text')
        .addColumn('max_uses', 'integer')
        .addColumn('once_per_rider', 'integer', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('uses', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addCheckConstraint('discount_code_uses', sql`uses >= 0 and (max_uses is null or uses <= max_uses)`)
        .execute();
      // Each order that used a code, kept when the order is cancelled (`given_back_at` then says when its use came
      // back). A code that is 'Once per rider' has one use not given back per e-mail address at most, whatever the
      // account: the partial unique index holds it.
      await db.schema
        .createTable('discount_use')
        .addColumn('order_number', 'integer', (c) => c.primaryKey().references('shop_order.number'))
        .addColumn('discount_id', 'text', (c) => c.notNull().references('discount_code.id'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('once_per_rider', 'integer', (c) => c.notNull())
        .addColumn('given_back_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('discount_use_once_per_rider')
        .on('discount_use')
        .columns(['discount_id', 'email'])
        .unique()
        .where(sql.ref('once_per_rider'), '=', 1)
        .where(sql.ref('given_back_at'), 'is', null)
        .execute();
    },
  },
  '0023-shipping-zones': {
    async up(db) {
      // The settings gain their shipping section (docs/decisions/0035-shipping-zones.md), started from the rule that
      // was fixed in code: a shop saved since keeps every other section as the owner left it.
      const row = await db.selectFrom('shop_settings').select('document').where('id', '=', 1).executeTakeFirst();
      if (!row) return;
      const document = { ...JSON.parse(row.document), shipping: firstShipping };
      await db
        .updateTable('shop_settings')
        .set({ document: JSON.stringify(document) })
        .where('id', '=', 1)
        .execute();
    },
  },
  '0025-tax-settings': {
    async up(db) {
      // The settings gain their tax section (docs/decisions/0041-tax-settings.md): no rates, prices that include any
      // tax, as the shop charged before; a shop saved since keeps every other section as the owner left it.
      const row = await db.selectFrom('shop_settings').select('document').where('id', '=', 1).executeTakeFirst();
      if (!row) return;
      const document = { ...JSON.parse(row.document), tax: firstTax };
      await db
        .updateTable('shop_settings')
        .set({ document: JSON.stringify(document) })
        .where('id', '=', 1)
        .execute();
    },
  },
  '0031-search-index-without-pending-list': {
    async up(db) {
      // PostgreSQL's GIN indexes of the search (docs/decisions/0045-finding-at-ten-thousand-products.md) take each
      // change into their index at once, rather than into a pending list that every search reads through until a
      // vacuum merges it; the list they hold now is merged here. SQLite's FTS5 has no such list.
      if (dialect !== 'postgres') return;
      for (const index of ['product_search_body', 'search_word_trigrams']) {
        await sql`alter index ${sql.id(index)} set (fastupdate = off)`.execute(db);
        await sql`select gin_clean_pending_list(${index}::regclass)`.execute(db);
      }
    },
  },
  '0033-orders-by-number': {
    async up(db) {
      // The back office's order list finds a page's numbers from an index alone (docs/decisions/0042-the-shop-at-size.md):
      // SQLite's table is ordered by number but holds whole rows, so a page deep in 200,000 orders stepped over
      // 100,000 of them (46 ms); this index holds the numbers alone (8 ms). PostgreSQL's primary key is such an index.
      if (dialect === 'postgres') return;
      await db.schema.createIndex('shop_order_number').on('shop_order').column('number').execute();
    },
  },
  '0034-shop-address-in-parts': {
    async up(db) {
      // The shop's address in its parts (docs/decisions/0051-a-sale-at-the-yard.md): an order collected at the yard is
      // taxed where the yard is, so its state and postal code must be known; it still prints as one block.
      const row = await db.selectFrom('shop_settings').select('document').where('id', '=', 1).executeTakeFirst();
      if (!row) return;
      const document = JSON.parse(row.document);
      if (typeof document.shop?.address !== 'string') return;
      document.shop.address = shopAddressParts(document.shop.address);
      await db
        .updateTable('shop_settings')
        .set({ document: JSON.stringify(document) })
        .where('id', '=', 1)
        .execute();
    },
  },
  '0035-unpaid-bank-transfers': {
    async up(db) {
      // An unpaid bank-transfer order is reminded once, then cancelled by the shop
      // (docs/decisions/0049-unpaid-bank-transfers.md): `pay_by` is the end of the last day its reminder gave, null
      // until the reminder is sent; the settings' bank transfer section gains the owner's switch, on. A shop saved
      // since keeps every other field as the owner left it.
      await db.schema.alterTable('shop_order').addColumn('pay_by', 'bigint').execute();
      const row = await db.selectFrom('shop_settings').select('document').where('id', '=', 1).executeTakeFirst();
      if (!row) return;
      const document = JSON.parse(row.document);
      document.bankTransfer = { ...document.bankTransfer, cancelUnpaid: firstCancelUnpaid };
      await db
        .updateTable('shop_settings')
        .set({ document: JSON.stringify(document) })
        .where('id', '=', 1)
        .execute();
    },
  },
  '0036-shop-format': {
    async up(db) {
      // The shop's currency, locale and time zone become settings (docs/decisions/0053-an-orders-money-as-one-value.md),
      // started from the values the code fixed: a shop saved since keeps every other section as the owner left it.
      const row = await db.selectFrom('shop_settings').select('document').where('id', '=', 1).executeTakeFirst();
      if (!row) return;
      const document = { ...JSON.parse(row.document), format: firstFormat };
      await db
        .updateTable('shop_settings')
        .set({ document: JSON.stringify(document) })
        .where('id', '=', 1)
        .execute();
    },
  },
  '0037-money-in-64-bits': {
    async up(db) {
      // Amounts of money in 64-bit integers on PostgreSQL (docs/decisions/0053-an-orders-money-as-one-value.md), as
      // SQLite's integers already are: a total in cents of a currency with many units to the dollar passes 2^31.
      if (dialect !== 'postgres') return;
      const columns: [string, string][] = [
        ['product', 'price_cents'],
        ['cart_item', 'price_cents'],
        ['shop_order', 'total_cents'],
        ['order_line', 'price_cents'],
        ['discount_code', 'value'],
        ['discount_code', 'min_subtotal_cents'],
      ];
      for (const [table, column] of columns) {
        await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} type bigint`.execute(db);
      }
    },
  },
  '0038-open-to-visitors': {
    async up(db) {
      // Open to visitors if the owner wants (docs/decisions/0055-open-to-visitors.md). The settings gain 'Who can see
      // the shop', 'Members only' as every shop was; a visitor's cart is a row of its own (its id the SHA-256 of its
      // cookie), and a cart's row belongs to a rider or to a visitor's cart: never both, never neither.
      const row = await db.selectFrom('shop_settings').select('document').where('id', '=', 1).executeTakeFirst();
      if (row) {
        const document = { ...JSON.parse(row.document), access: firstAccess };
        await db
          .updateTable('shop_settings')
          .set({ document: JSON.stringify(document) })
          .where('id', '=', 1)
          .execute();
      }
      await db.schema
        .createTable('visitor_cart')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('changed_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('visitor_cart_address')
        .on('visitor_cart')
        .columns(['address', 'created_at'])
        .execute();
      await db.schema.createIndex('visitor_cart_changed_at').on('visitor_cart').column('changed_at').execute();
      if (dialect === 'postgres') {
        await db.schema
          .alterTable('cart_item')
          .alterColumn('uid', (c) => c.dropNotNull())
          .execute();
        await db.schema
          .alterTable('cart_item')
          .addColumn('visitor_cart_id', 'text', (c) => c.references('visitor_cart.id').onDelete('cascade'))
          .execute();
        await sql`alter table cart_item add constraint cart_item_one_owner check ((uid is null) <> (visitor_cart_id is null))`.execute(
          db,
        );
      } else {
        // SQLite changes a column's constraints by making the table anew.
        await sql`create table cart_item_new (
          id text primary key,
          uid text references user(id) on delete cascade,
          visitor_cart_id text references visitor_cart(id) on delete cascade,
          itemid text not null,
          name text not null,
          price_cents integer not null,
          details text not null,
          created_at bigint not null,
          size text,
          check ((uid is null) <> (visitor_cart_id is null))
        )`.execute(db);
        await sql`insert into cart_item_new (id, uid, itemid, name, price_cents, details, created_at, size)
          select id, uid, itemid, name, price_cents, details, created_at, size from cart_item`.execute(db);
        await sql`drop table cart_item`.execute(db);
        await sql`alter table cart_item_new rename to cart_item`.execute(db);
        await db.schema
          .createIndex('cart_item_uid_created_at')
          .on('cart_item')
          .columns(['uid', 'created_at'])
          .execute();
      }
      await db.schema
        .createIndex('cart_item_visitor_cart_created_at')
        .on('cart_item')
        .columns(['visitor_cart_id', 'created_at'])
        .execute();
    },
  },
});

/** The names of our migrations, oldest first: a database that has applied any other comes from a newer Piaffe. */
export const migrationNames: readonly string[] = Object.keys(migrations('sqlite'));

/** The table in which the migrator records what it applied: its presence marks a Piaffe database. */
export const migrationTable = 'piaffe_migration';

/**
 * Applies our migrations; Kysely's migrator takes a lock, so concurrent starts are safe. On PostgreSQL,
 * `schema` names the schema the tables live in: Kysely looks its bookkeeping tables up in every schema
 * unless told which, and would take another schema's for ours.
 */
export async function migrate(db: Kysely<Tables>, dialect: Dialect, schema?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations(dialect) },
    migrationTableName: migrationTable,
    migrationLockTableName: 'piaffe_migration_lock',
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${String(error)}`, { cause: error });
  }
}
