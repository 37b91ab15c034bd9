import { Hono } from 'hono';
import { endpoints } from '../shared/api';
import type { Accounts } from './account/accounts';
import type { PasswordResets } from './account/password-resets';
import { resetRoutes } from './account/reset-routes';
import { accountRoutes } from './account/routes';
import { adminRoutes } from './admin/routes';
import type { AppEnv } from './app-env';
import { accessGate } from './auth/access-gate';
import type { Auth } from './auth/auth';
import { confirmationRoutes } from './auth/confirmation-routes';
import type { DeviceCookies } from './auth/device-cookie';
import type { EmailConfirmations } from './auth/email-confirmations';
import { passkeyRoutes } from './auth/passkey-routes';
import type { Roles } from './auth/roles';
import { authRoutes } from './auth/routes';
import { sessionRoutes } from './auth/session-routes';
import type { Sessions } from './auth/sessions';
import type { LoginThrottle } from './auth/throttle';
import type { CartStore } from './cart/cart-store';
import { cartRoutes } from './cart/routes';
import type { VisitorCarts } from './cart/visitor-carts';
import { productRoutes } from './catalogue/admin-routes';
import type { CatalogueStore } from './catalogue/catalogue-store';
import { createCategoryStore } from './catalogue/category-store';
import { catalogueRoutes } from './catalogue/routes';
import type { Config } from './config';
import { pageHead } from './crawlers/head';
import { pageRender } from './crawlers/page-render';
import { pictureSizes } from './crawlers/picture-sizes';
import { crawlerRoutes } from './crawlers/routes';
import type { Db } from './db/database';
import { isPoolExhausted } from './db/open';
import { DatabaseBusyError, isBusy } from './db/sqlite-driver';
import type { DiscountStore } from './discounts/discount-store';
import { discountRoutes } from './discounts/routes';
import { clientClosedRequest, clientHungUp, errorResponse, HttpError } from './http/errors';
import { createMetrics } from './http/metrics';
import { requestLog } from './http/request-log';
import { sameOriginOnly } from './http/security';
import type { Invoices } from './invoices/invoicing';
import { invoiceRoutes } from './invoices/routes';
import type { LiveStreams } from './live/live-streams';
import type { Logger } from './log';
import type { Outbox } from './mail/outbox';
import type { OrderStore } from './orders/order-store';
import { orderRoutes } from './orders/routes';
import { pageData } from './page-data';
import type { CardPayments } from './payments/card-payments';
import type { ReturnSettling } from './returns/return-settling';
import type { ReturnStore } from './returns/return-store';
import { returnRoutes } from './returns/routes';
import { settingsRoutes } from './settings/routes';
import type { SettingsStore } from './settings/settings-store';
import { staticFiles } from './static-files';
import { stockAlertRoutes } from './stock/stock-alert-routes';
import type { StockStore } from './stock/stock-store';
import { createStockWaits } from './stock/stock-waits';

export interface AppParts {
  config: Config;
  log: Logger;
  auth: Auth;
  db: Db;
  sessions: Sessions;
  devices: DeviceCookies;
  throttle: LoginThrottle;
  roles: Roles;
  accounts: Accounts;
  resets: PasswordResets;
  confirmations: EmailConfirmations;
  cart: CartStore;
  visitorCarts: VisitorCarts;
  catalogue: CatalogueStore;
  settings: SettingsStore;
  stock: StockStore;
  orders: OrderStore;
  returns: ReturnStore;
  settling: ReturnSettling;
  discounts: DiscountStore;
  invoices: Invoices;
  payments: CardPayments;
  outbox: Outbox;
  streams: LiveStreams;
  /** True once a graceful shutdown has begun: new API requests are turned away. */
  isClosing: () => boolean;
}

/** Builds the whole HTTP app; server.ts gives it a database and a port, tests give it a throwaway one. */
export function buildApp(parts: AppParts) {
  const { config, log, auth, db, sessions, devices, throttle, roles, accounts, resets, cart, stock, orders, outbox } =
    parts;
  const { catalogue, settings, discounts, invoices, payments, streams, confirmations, visitorCarts, isClosing } = parts;
  const { returns, settling } = parts;
  const hashPassword = async (password: string) => (await auth.$context).password.hash(password);

  const app = new Hono<AppEnv>();
  const metrics = config.metricsToken ? createMetrics({ token: config.metricsToken, streams, outbox }) : undefined;
  app.use(requestLog(log));
  if (metrics) {
    app.use(metrics.requests);
    app.get('/metrics', metrics.route);
    app.post(endpoints.placeOrder.path, metrics.orders);
  }
  // Up while the database answers; e-mail trouble shows in the body (overdue and failed e-mails), never in the status.
  app.get('/healthz', async (c) => {
    try {
      const mail = {
        sending: config.mail.smtpUrl !== undefined || config.mail.localMailbox,
        ...(await outbox.health()),
      };
      return c.json({ status: isClosing() ? 'closing' : 'ok', mail }, isClosing() ? 503 : 200);
    } catch {
      return c.json({ status: 'database unavailable' }, 503);
    }
  });

  app.use('/api/*', async (c, next) => {
    if (isClosing()) return errorResponse(c, 'server/unavailable', undefined, { Connection: 'close' });
    await next();
  });
  // Stripe's webhook comes from Stripe's servers, not from a page: its signature guards it instead.
  app.use(
    '/api/*',
    sameOriginOnly(config.publicUrlIsSet ? config.publicUrl : undefined, [endpoints.stripeWebhook.path]),
  );
  // Who may reach each route: a request for none is 404, a visitor passes only where the shop lets them.
  app.use(
    '/api/*',
    accessGate(sessions, async () => (await settings.current()).access.openTo),
  );
  const { trustProxy } = config;
  const takeVisitorCart = visitorCarts.join;
  app.route(
    '/',
    authRoutes({ auth, db, sessions, throttle, devices, roles, confirmations, takeVisitorCart, trustProxy }),
  );
  app.route('/', passkeyRoutes({ auth, db, sessions, devices, roles, throttle, takeVisitorCart, trustProxy }));
  app.route('/', resetRoutes({ resets, throttle, hashPassword, trustProxy }));
  app.route('/', confirmationRoutes({ confirmations, sessions, throttle, trustProxy }));
  app.route('/', accountRoutes({ accounts, sessions, devices, streams, throttle, trustProxy, hashPassword }));
  app.route('/', sessionRoutes({ db, sessions }));
  app.route('/', stockAlertRoutes({ sessions, waits: createStockWaits(db) }));
  app.route('/', catalogueRoutes({ sessions, catalogue, streams }));
  app.route('/', cartRoutes({ sessions, cart, visitorCarts, catalogue, stock, streams }));
  app.route('/', orderRoutes({ sessions, orders, payments, settings, streams, throttle, trustProxy }));
  app.route(
    '/',
    adminRoutes({
      sessions,
      roles,
      orders,
      outbox,
      payments,
      streams,
      exportBatch: config.exportBatchOrders,
      settings,
    }),
  );
  app.route('/', returnRoutes({ sessions, returns, settling }));
  app.route('/', invoiceRoutes({ sessions, invoices, settings }));
  app.route('/', productRoutes({ sessions, catalogue, categories: createCategoryStore(db) }));
  app.route('/', settingsRoutes({ sessions, settings, takesCards: payments.offered }));
  app.route('/', discountRoutes({ sessions, discounts }));
  app.all('/api/*', (c) => errorResponse(c, 'request/not-found'));

  // What crawlers and shared links read (docs/product.md §24): robots.txt, the sitemap, the feed, and each page's head.
  const { publicUrl } = config;
  app.route('/', crawlerRoutes({ db, publicUrl, settings }));
  const pageParts = { sessions, roles, catalogue, cart, visitorCarts, orders, settings, takesCards: payments.offered };
  const head = pageHead({ db, publicUrl, pictureSize: pictureSizes(db, config.distDir) });
  app.get('*', staticFiles(config.distDir, pageData(pageParts), head, pageRender(config.distDir)));
  app.all('*', (c) => errorResponse(c, 'request/not-found'));

  app.onError((error, c) => {
    if (error instanceof HttpError) return errorResponse(c, error.code, error.message, error.headers, error.fields);
    // Another program held the SQLite file longer than a request waits for it (db/sqlite-driver.ts), or every
    // connection of the PostgreSQL pool stayed taken as long (db/open.ts).
    if (error instanceof DatabaseBusyError || isBusy(error) || isPoolExhausted(error)) {
      return errorResponse(c, 'server/busy', undefined, { 'Retry-After': '1' });
    }
    if (clientHungUp(c)) {
      (c.get('log') ?? log).debug({ method: c.req.method, path: c.req.path }, 'the client hung up mid-request');
      return new Response(null, { status: clientClosedRequest });
    }
    (c.get('log') ?? log).error({ err: error, method: c.req.method, path: c.req.path }, 'unhandled error');
    return errorResponse(c, 'server/internal');
  });
  return app;
}
