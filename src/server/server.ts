import { createServer, type RequestListener, type ServerOptions } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { card } from '../shared/payment/card';
import { publicShopOf } from '../shared/settings';
import { createAccounts } from './account/accounts';
import { createPasswordResets, resetLinks } from './account/password-resets';
import { buildApp } from './app';
import { createAuth } from './auth/auth';
import { createDeviceCookies } from './auth/device-cookie';
import { createEmailConfirmations } from './auth/email-confirmations';
import { createLoginAttemptStore } from './auth/login-attempt-store';
import { deleteExpiredChallenges } from './auth/passkey-challenges';
import { createRoles } from './auth/roles';
import { createSessions } from './auth/sessions';
import { createLoginThrottle } from './auth/throttle';
import { nudgeCarts } from './cart/cart-nudge';
import { createCartStore } from './cart/cart-store';
import { createVisitorCarts } from './cart/visitor-carts';
import { createCatalogueStore } from './catalogue/catalogue-store';
import { deleteUnusedPictures } from './catalogue/unused-pictures';
import type { Config } from './config';
import { migrateDatabase, openDatabase } from './db/connect';
import { createDb, type Db, type UnitOfWork } from './db/database';
import { holdAsServer } from './db/in-use';
import { createDiscountStore } from './discounts/discount-store';
import { startHousekeeping } from './housekeeping';
import { answerClientErrors } from './http/client-errors';
import { requestPace } from './http/input';
import { isHttps, presetHeaders, securityHeaders } from './http/security';
import { createInvoices } from './invoices/invoicing';
import { LiveStreams } from './live/live-streams';
import { createLogger, type Logger } from './log';
import { createOutbox } from './mail/outbox';
import { createSeal } from './mail/seal';
import { startMailSender } from './mail/sender';
import { createOrderStore } from './orders/order-store';
import { createCardLease } from './payments/card-lease';
import { createCardPayments } from './payments/card-payments';
import { cardBeforeCancel, cardPartRefund } from './payments/card-refunds';
import { startCardSweep } from './payments/card-sweep';
import { connectStripe } from './payments/stripe-client';
import { createTransferSweep } from './payments/transfer-sweep';
import { createReturnSettling } from './returns/return-settling';
import { createReturnStore } from './returns/return-store';
import { createSettingsStore } from './settings/settings-store';
import { createStockStore } from './stock/stock-store';

export interface RunningServer {
  url: string;
  db: Db;
  streams: LiveStreams;
  log: Logger;
  /**
   * Reminds and cancels the unpaid bank-transfer orders due at `now`, as every round of the housekeeping does
   * (src/server/payments/transfer-sweep.ts); the number of orders it reminded or cancelled.
   */
  sweepUnpaidTransfers(now?: number): Promise<number>;
  /** Graceful shutdown: stop accepting, end live streams, let in-flight requests finish, close the database. */
  close(): Promise<void>;
}

const shutdownGraceMs = 10_000;

export async function startServer(config: Config, log: Logger = createLogger(config.logLevel)): Promise<RunningServer> {
  const opened = openDatabase(config.databaseUrl, log);
  const auth = createAuth(opened.db, opened.dialect, config, log);
  let db: Db;
  // Held for the server's life, from before its migrations: `npm run demo-data` refuses a shop in use, and a server
  // refuses to start while it fills one (docs/decisions/0050-a-fill-alone.md).
  let inUse: Awaited<ReturnType<typeof holdAsServer>> | undefined;
  try {
    inUse = await holdAsServer(config.databaseUrl, log);
    await migrateDatabase(opened, auth);
    db = await createDb(opened, log);
  } catch (error) {
    await opened.db.destroy().catch(() => {});
    await inUse?.release();
    throw error;
  }
  const held = inUse;
  const roles = createRoles(db);
  const sessions = await createSessions(auth, db, roles, log, { trustProxy: config.trustProxy });
  const devices = createDeviceCookies(config.authSecret, isHttps(config.publicUrl), db);
  const cart = createCartStore(db);
  const visitorCarts = createVisitorCarts(db, cart, {
    secure: isHttps(config.publicUrl),
    trustProxy: config.trustProxy,
  });
  const throttle = createLoginThrottle(createLoginAttemptStore(db));
  const settings = createSettingsStore(db);
  const shop = async (uow: UnitOfWork) => publicShopOf(await settings.current(uow));
  const outbox = createOutbox(db, { publicUrl: config.publicUrl, shop }, createSeal(config.authSecret));
  const confirmations = createEmailConfirmations({ db, outbox, sessions });
  const accounts = createAccounts({ db, sessions, devices, cart, throttle, outbox, resetLinks, confirmations });
  const resets = createPasswordResets({ db, accounts, outbox });
  const stock = createStockStore(db, outbox);
  const catalogue = createCatalogueStore(db, stock, settings, nudgeCarts);
  const stripe = connectStripe(config.stripe);
  const lease = createCardLease(db);
  // A card order's cancel closes its sessions at Stripe, or refunds it, first.
  const beforeCancel = new Map([[card.id, cardBeforeCancel({ db, stripe, lease, log })]]);
  const discounts = createDiscountStore(db, settings);
  const orders = createOrderStore({
    db,
    cart,
    stock,
    outbox,
    discounts,
    settings,
    cardPaymentMs: config.cardPaymentMs,
    beforeCancel,
  });
  // Returns (docs/product.md §25): a card order's part refunds go through Stripe, holding the order's lease.
  const returns = createReturnStore({ db, stock, outbox, settings });
  const settling = createReturnSettling({
    db,
    outbox,
    settings,
    lease,
    refunders: new Map([[card.id, cardPartRefund({ stripe, log })]]),
  });
  const payments = createCardPayments({
    db,
    orders,
    stripe,
    lease,
    publicUrl: config.publicUrl,
    cardPaymentMs: config.cardPaymentMs,
    log,
    settings,
  });
  const cardSweep = startCardSweep(payments.sweep, config.cardPaymentMs, log);
  const transferSweep = createTransferSweep({ db, orders, settings });
  const housekeeping = startHousekeeping(
    {
      'expired passkey challenges': (now) => deleteExpiredChallenges(db, now),
      'unused pictures': (now) => deleteUnusedPictures(db, now),
      'unpaid bank transfers': transferSweep,
      "visitors' carts unchanged for 30 days": (now) => visitorCarts.sweep(now),
    },
    log,
  );
  const mailSender = await startMailSender(config, { outbox, feed: db.feed, log });
  const streams = new LiveStreams({
    feed: db.feed,
    sessions,
    shop: async () => publicShopOf(await settings.current()),
    log,
    maxStreams: config.maxLiveStreams,
    trustProxy: config.trustProxy,
  });
  let closing = false;
  const app = buildApp({
    config,
    log,
    auth,
    db,
    sessions,
    devices,
    throttle,
    roles,
    accounts,
    resets,
    confirmations,
    cart,
    visitorCarts,
    catalogue,
    settings,
    stock,
    orders,
    returns,
    settling,
    discounts,
    invoices: createInvoices(db),
    payments,
    outbox,
    streams,
    isClosing: () => closing,
  });

  const preset = presetHeaders(config.publicUrl);
  const server = createAdaptorServer({
    fetch: app.fetch,
    // A body's own pace is kept as it is read (http/input.ts); Node bounds the headers and the whole request, and
    // looks for requests past them every second rather than every 30.
    serverOptions: {
      headersTimeout: requestPace.headersMs,
      requestTimeout: requestPace.requestMs,
      connectionsCheckingInterval: 1_000,
    },
    createServer: ((options: ServerOptions, listener: RequestListener) =>
      createServer(options, (req, res) => {
        preset(req, res);
        listener(req, res);
      })) as typeof createServer,
  });
  server.on('clientError', answerClientErrors(securityHeaders(config.publicUrl)));
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
    server.listen(config.port, config.host);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  log.info({ url, database: opened.dialect }, 'listening');

  let closed: Promise<void> | undefined;
  async function close() {
    closing = true;
    // Closes the idle connections now; those that carried a stream stay open (idle, until their keep-alive
    // timeout) so that a request already on its way over one is answered 503 rather than cut off.
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    streams.closeAll();
    const force = setTimeout(() => 'closeAllConnections' in server && server.closeAllConnections(), shutdownGraceMs);
    await drained;
    clearTimeout(force);
    await mailSender?.stop();
    await cardSweep.stop();
    await housekeeping.stop();
    await db.close();
    await held.release();
    log.info('closed');
  }
  return {
    url,
    db,
    streams,
    log,
    sweepUnpaidTransfers: (now = Date.now()) => transferSweep(now),
    close: () => {
      closed ??= close();
      return closed;
    },
  };
}
