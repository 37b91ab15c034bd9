import type { MiddlewareHandler } from 'hono';
import { type Access, mayReach } from '../../shared/access';
import { endpoints } from '../../shared/api';
import type { OpenTo } from '../../shared/settings';
import type { AppEnv } from '../app-env';
import { HttpError } from '../http/errors';
import type { Sessions } from './sessions';

type EndpointName = keyof typeof endpoints;

/**
 * Who may reach each API route (docs/product.md §23, docs/API.md): the one table a visitor's request is checked
 * against, before any route. Every endpoint of the contract is here (the type demands it), and a request that matches
 * none is not one of ours: 404, whoever asks. A rider's or an owner's request goes on to its route, which checks the
 * role it needs (an owner's route answers a rider 403).
 */
export const endpointAccess: Readonly<Record<EndpointName, Access>> = {
  signUp: 'anyone',
  logIn: 'anyone',
  logOut: 'anyone',
  session: 'rider',
  passkeyLogInOptions: 'anyone',
  passkeyLogIn: 'anyone',
  requestPasswordReset: 'anyone',
  checkResetLink: 'anyone',
  resetPassword: 'anyone',
  confirmEmail: 'anyone',
  resendConfirmation: 'rider',
  changeEmail: 'rider',
  changePassword: 'rider',
  deleteAccount: 'rider',
  accountStream: 'rider',
  accountSessions: 'rider',
  endAccountSession: 'rider',
  endOtherSessions: 'rider',
  passkeys: 'rider',
  passkeyRegistrationOptions: 'rider',
  addPasskey: 'rider',
  removePasskey: 'rider',
  stockAlerts: 'rider',
  addStockAlert: 'rider',
  cancelStockAlert: 'rider',
  // The shown products were readable without a session before the shop could open (docs/decisions/0036): they
  // name no one, and a hidden product is in none of them.
  catalogue: 'anyone',
  products: 'anyone',
  product: 'anyone',
  catalogueStream: 'shop',
  cart: 'shop',
  addToCart: 'shop',
  removeFromCart: 'shop',
  cartStream: 'shop',
  quote: 'rider',
  paymentMethods: 'anyone',
  countries: 'anyone',
  regions: 'anyone',
  shop: 'anyone',
  placeOrder: 'rider',
  orders: 'rider',
  ordersStream: 'rider',
  order: 'rider',
  cancelOrder: 'rider',
  orderReturns: 'rider',
  orderDocument: 'rider',
  requestReturn: 'rider',
  payOrder: 'rider',
  orderInvoice: 'rider',
  orderCreditNote: 'rider',
  // Stripe's servers: the signature is the guard (docs/SECURITY.md).
  stripeWebhook: 'anyone',
  adminOrders: 'owner',
  adminOrdersStream: 'owner',
  adminExport: 'owner',
  adminOrder: 'owner',
  adminMoveOrder: 'owner',
  adminReturns: 'owner',
  adminReturn: 'owner',
  adminReceiveReturn: 'owner',
  adminSettleReturn: 'owner',
  adminRefuseReturn: 'owner',
  adminInvoices: 'owner',
  adminInvoicesZip: 'owner',
  adminInvoice: 'owner',
  adminPaymentProblems: 'owner',
  adminSettings: 'owner',
  adminSaveSettings: 'owner',
  adminProducts: 'owner',
  adminCreateProduct: 'owner',
  adminOrderProducts: 'owner',
  adminProduct: 'owner',
  adminUpdateProduct: 'owner',
  adminProductPicture: 'owner',
  adminAddProductPicture: 'owner',
  adminOrderProductPictures: 'owner',
  adminCategories: 'owner',
  adminCreateCategory: 'owner',
  adminUpdateCategory: 'owner',
  adminRemoveCategory: 'owner',
  adminOrderCategories: 'owner',
  adminDiscounts: 'owner',
  adminCreateDiscount: 'owner',
  adminSwitchDiscount: 'owner',
  adminOutbox: 'owner',
  adminRetryEmail: 'owner',
};

/** Each endpoint's method and a pattern of its path; paths without parameters first, so `/orders/stream` is not a number. */
const matchers = Object.entries(endpoints)
  .map(([name, { method, path }]) => ({
    name: name as EndpointName,
    method,
    params: path.split('/').filter((part) => part.startsWith(':')).length,
    pattern: new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/:[A-Za-z]+/g, '[^/]+')}$`),
  }))
  .sort((a, b) => a.params - b.params);

/** The endpoint a request is for (HEAD asks for a GET's headers), if any. */
export function endpointOf(method: string, path: string): EndpointName | undefined {
  const asked = method === 'HEAD' ? 'GET' : method;
  return matchers.find((m) => m.method === asked && m.pattern.test(path))?.name;
}

/**
 * The gate in front of every API route: a request for no endpoint is 404; a visitor may pass where `mayReach` says,
 * `openTo` being who can see the shop now (its settings, as this server keeps them).
 */
export function accessGate(sessions: Sessions, openTo: () => Promise<OpenTo>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const name = endpointOf(c.req.method, c.req.path);
    if (name === undefined) throw new HttpError('request/not-found');
    const access = endpointAccess[name];
    if (access !== 'anyone' && !(await sessions.find(c))) {
      if (!mayReach(access, 'visitor', await openTo())) throw new HttpError('auth/unauthenticated');
    }
    await next();
  };
}
