import { findingLimits, limits, productLimits } from './limits';

const passwordLength = `The password must be ${limits.passwordMin} to ${limits.passwordMax} characters.`;

/** Every error the API returns: a stable code, its HTTP status and a default human message. */
export const errorCatalogue = {
  'auth/invalid-email': { status: 400, message: 'The e-mail address is not valid.' },
  'auth/weak-password': { status: 400, message: passwordLength },
  'auth/invalid-password': { status: 400, message: passwordLength },
  'auth/email-already-in-use': { status: 409, message: 'This e-mail address is already in use by another account.' },
  'auth/invalid-credential': { status: 401, message: 'The e-mail address or password is wrong.' },
  'auth/too-many-requests': { status: 429, message: 'Too many attempts. Please wait a few minutes and try again.' },
  'auth/requires-recent-login': { status: 403, message: 'This needs a recent log-in. Please log in again.' },
  'auth/unauthenticated': { status: 401, message: 'You are not logged in.' },
  'auth/forbidden': { status: 403, message: "This is for the shop's owners only." },
  'auth/session-not-found': { status: 404, message: 'This device is no longer logged in.' },
  'auth/reset-link-invalid': {
    status: 400,
    message: 'This link to reset the password is not valid. Please ask for a new one.',
  },
  'auth/reset-link-expired': {
    status: 410,
    message: 'This link to reset the password has expired: each link works for one hour. Please ask for a new one.',
  },
  'auth/reset-link-used': {
    status: 410,
    message: 'This link to reset the password has already been used. Please ask for a new one.',
  },
  'auth/email-not-confirmed': {
    status: 403,
    message:
      'Please confirm your e-mail address before you order: open the link we sent you, then place your order again.',
  },
  'auth/email-already-confirmed': { status: 409, message: 'Your e-mail address is already confirmed.' },
  'auth/confirm-link-invalid': {
    status: 400,
    message: 'This link to confirm your e-mail address is not valid. Please ask for a new one.',
  },
  'auth/confirm-link-expired': {
    status: 410,
    message:
      'This link to confirm your e-mail address has expired: each link works for 24 hours. Please ask for a new one.',
  },
  'auth/confirm-link-used': {
    status: 410,
    message: 'This link to confirm your e-mail address has already been used. Please ask for a new one if you need it.',
  },
  'passkey/invalid-name': {
    status: 400,
    message: `The passkey's name must be 1 to ${limits.passkeyNameMax} characters.`,
  },
  'passkey/invalid-response': {
    status: 400,
    message: "The passkey's answer could not be verified. Please try again.",
  },
  'passkey/challenge-expired': {
    status: 400,
    message: 'This passkey request has expired or was already answered. Please try again.',
  },
  'passkey/unknown': {
    status: 401,
    message:
      'The shop does not know this passkey: it may have been removed. Please log in with your e-mail and password.',
  },
  'passkey/email-not-confirmed': {
    status: 403,
    message:
      'Please confirm your e-mail address before you add a passkey: open the link we sent you, then add it again.',
  },
  'passkey/not-found': { status: 404, message: 'There is no such passkey on your account.' },
  'cart/unknown-item': { status: 400, message: 'There is no product with this item number.' },
  'cart/invalid-size': { status: 400, message: 'Please choose one of the sizes this product comes in.' },
  'cart/sold-out': { status: 409, message: 'Sorry, that size is sold out.' },
  'cart/unavailable': { status: 409, message: 'Sorry, this product is no longer available.' },
  'cart/full': { status: 409, message: `Your cart is full: it holds at most ${limits.cartMaxRows} items.` },
  'cart/not-found': { status: 404, message: 'There is no such item in your cart.' },
  'cart/too-many-carts': {
    status: 429,
    message: 'Too many new carts were started from your network. Please try again later, or log in.',
  },
  'order/cart-empty': { status: 409, message: 'Your cart is empty, so there is nothing to order.' },
  'order/cart-changed': {
    status: 409,
    message: 'Your cart has changed since this page showed it. Please check your order and place it again.',
  },
  'order/sold-out': {
    status: 409,
    message:
      'Sorry, some of your items have sold out since you put them in your cart. Please remove them and order again.',
  },
  'order/size-missing': {
    status: 409,
    message:
      'Some of your items were put in your cart before the shop had sizes. Please remove them and add them again in your size.',
  },
  'order/unavailable': {
    status: 409,
    message: 'Sorry, some of your items are no longer available. Please remove them and order again.',
  },
  'order/invalid-address': { status: 400, message: 'The delivery address is not complete.' },
  'order/invalid-payment-method': { status: 400, message: 'Choose one of the payment methods offered.' },
  'order/invalid-shipping-method': {
    status: 400,
    message: 'Choose one of the delivery methods offered for this address.',
  },
  'order/not-shipped': { status: 400, message: 'We do not ship to this country yet.' },
  'order/shipping-changed': {
    status: 409,
    message: 'The price of delivery has changed since this page showed it. Please check your order and place it again.',
  },
  'places/unknown-country': { status: 404, message: 'There is no such country.' },
  'order/card-minimum': {
    status: 409,
    message: 'This total is below the least a card payment may be: please choose another way to pay.',
  },
  'order/not-found': { status: 404, message: 'There is no such order.' },
  'invoice/not-found': { status: 404, message: 'There is no such invoice or credit note.' },
  'order/invalid-transition': { status: 409, message: 'This order cannot be changed that way.' },
  'order/status-changed': { status: 409, message: 'Someone else has just changed this order.' },
  'order/too-many': {
    status: 429,
    message: `You have placed ${limits.ordersPerHour} orders in the last hour. Please wait a while before ordering again.`,
  },
  'order/discount-unavailable': {
    status: 409,
    message: 'The discount code can no longer be used, so the order was not placed. Your cart is as it was.',
  },
  'discount/invalid': { status: 404, message: 'This code is not valid.' },
  'discount/expired': { status: 410, message: 'This code has expired.' },
  'discount/minimum': { status: 409, message: 'This code needs a larger order.' },
  'discount/used-up': { status: 409, message: 'This code has been used up.' },
  'discount/already-used': { status: 409, message: 'You have already used this code.' },
  'discount/too-many-attempts': {
    status: 429,
    message: 'Too many discount codes tried. Please wait a few minutes and try again.',
  },
  'discount/not-found': { status: 404, message: 'There is no such discount code.' },
  'discount/form-invalid': { status: 400, message: 'The new discount code is not complete.' },
  'discount/code-taken': {
    status: 409,
    message: 'There is already a code like this one (codes compare without case).',
  },
  'payment/not-awaiting': { status: 409, message: 'This order is not waiting for a card payment.' },
  'payment/busy': {
    status: 409,
    message: "This order's card payment is being changed right now. Please try again in a moment.",
  },
  'payment/in-progress': {
    status: 409,
    message: 'A card payment for this order is going through: we are confirming it, so it cannot be changed now.',
  },
  'payment/refund-failed': {
    status: 409,
    message: 'Stripe refused the refund, so the order stays paid.',
  },
  'payment/invalid-signature': {
    status: 400,
    message: "The webhook's Stripe-Signature is missing, wrong or too old.",
  },
  'stream/too-many': {
    status: 429,
    message: 'Too many live pages are open for this log-in. Close some and try again.',
  },
  'product/not-found': { status: 404, message: 'There is no product with this item number.' },
  'product/no-page': { status: 404, message: 'There is no such product in the shop.' },
  'product/invalid': { status: 400, message: 'The product is not valid.' },
  'product/changed': {
    status: 409,
    message:
      'Someone else has just changed this product. Your changes are not saved: see theirs, then make yours again.',
  },
  'product/unknown-size': { status: 400, message: 'This product has no such size.' },
  'product/not-every-product': {
    status: 400,
    message: 'The new order must name every product once.',
  },
  'stock-alert/unknown-product': { status: 404, message: 'There is no such product in the shop.' },
  'stock-alert/unknown-size': { status: 400, message: 'This product comes in no such size.' },
  'stock-alert/in-stock': { status: 409, message: 'This size is in stock: add it to your cart.' },
  'stock-alert/too-many': {
    status: 409,
    message: `You have ${limits.stockAlertsMax} back-in-stock alerts already: cancel one on your account page first.`,
  },
  'stock-alert/not-found': { status: 404, message: 'There is no such alert: it has ended, or was cancelled.' },
  'return/not-found': { status: 404, message: 'There is no such return.' },
  'return/order-not-found': { status: 404, message: 'There is no such order.' },
  'return/closed': {
    status: 409,
    message: 'This order can no longer be returned: returns are asked within the shop’s days after it was shipped.',
  },
  'return/unknown-line': { status: 400, message: 'This order has no such item.' },
  'return/line-taken': { status: 409, message: 'This item has already been asked back.' },
  'return/unknown-size': { status: 400, message: 'This product comes in no such size to exchange for.' },
  'return/size-sold-out': { status: 409, message: 'The size asked for in exchange has just sold out: choose another.' },
  'return/invalid': { status: 400, message: 'The return is not valid.' },
  'return/state-changed': { status: 409, message: 'Someone else has just changed this return.' },
  'return/not-received': { status: 409, message: 'Mark the items received before the refund.' },
  'return/wrong-lines': {
    status: 400,
    message: 'Say for each item of the return, and only those, whether it is restocked.',
  },
  'return/refund-busy': {
    status: 409,
    message: 'This refund is being made right now. Please wait a moment and look again.',
  },
  'return/refund-failed': {
    status: 409,
    message: 'Stripe refused the refund: the return stays received, and the refund can be tried again.',
  },
  'category/not-found': { status: 404, message: 'There is no such category.' },
  'category/invalid': { status: 400, message: 'The category is not valid.' },
  'category/changed': {
    status: 409,
    message:
      'Someone else has just changed this category. Your changes are not saved: see theirs, then make yours again.',
  },
  'category/has-products': {
    status: 409,
    message: 'This category has products. Confirm that they leave it, and it is removed.',
  },
  'category/not-every-category': { status: 400, message: 'The new order must name every category once.' },
  'settings/invalid': { status: 400, message: 'The settings are not valid.' },
  'settings/changed': {
    status: 409,
    message:
      'Someone else has just changed the settings. Your changes are not saved: see theirs, then make yours again.',
  },
  'picture/invalid': { status: 415, message: 'This file is not a JPEG, PNG or WebP picture.' },
  'picture/too-large': {
    status: 413,
    message: `The picture is too large: at most ${productLimits.pictureMaxBytes / 1024 / 1024} MB.`,
  },
  'picture/too-many': {
    status: 409,
    message: `A product has at most ${findingLimits.picturesMax} pictures: remove one first.`,
  },
  'outbox/not-found': { status: 404, message: 'There is no such e-mail in the outbox.' },
  'outbox/not-retryable': {
    status: 409,
    message: 'Only a failed e-mail can be sent again, and never a password-reset link: the rider asks for a new one.',
  },
  'request/invalid-json': { status: 400, message: 'The request body is not valid JSON.' },
  'request/invalid-body': { status: 400, message: 'The request body does not have the expected fields.' },
  'request/body-too-large': { status: 413, message: 'The request body is too large.' },
  'request/too-slow': {
    status: 408,
    message:
      'The request arrived too slowly, so the shop stopped waiting for it. Please check your connection and try again.',
  },
  'request/unsupported-media-type': { status: 415, message: 'Send the request body as application/json.' },
  'request/cross-origin': { status: 403, message: 'Cross-origin requests are not allowed.' },
  'request/not-found': { status: 404, message: 'There is no such API route.' },
  'request/header-too-large': {
    status: 431,
    message: 'The request headers are too large: the address or the cookies are too long.',
  },
  'request/malformed': { status: 400, message: 'The request is not valid HTTP.' },
  'request/invalid-query': { status: 400, message: 'The query string does not have the expected parameters.' },
  'server/unavailable': { status: 503, message: 'The server is shutting down. Please try again.' },
  'server/busy': { status: 503, message: 'The shop is busy right now. Please try again in a moment.' },
  'server/too-many-streams': {
    status: 503,
    message: 'The shop has too many live pages open right now. Please try again in a minute.',
  },
  'server/payments-unavailable': {
    status: 503,
    message: 'The card payment service cannot be reached right now. Please try again in a moment.',
  },
  'server/internal': { status: 500, message: 'Something went wrong on our side.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

/** The codes whose body says more than `{code, message}`, and what: the cart rows concerned, or the form's field. */
export const errorExtras: Partial<Record<ErrorCode, 'rows' | 'field' | 'reason'>> = {
  'order/sold-out': 'rows',
  'order/size-missing': 'rows',
  'order/unavailable': 'rows',
  'product/invalid': 'field',
  'category/invalid': 'field',
  'settings/invalid': 'field',
  'discount/form-invalid': 'field',
  'discount/code-taken': 'field',
  'order/discount-unavailable': 'reason',
  'order/invalid-address': 'field',
  'return/invalid': 'field',
};

/** The body of every error response. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  /** `order/sold-out`, `order/size-missing` and `order/unavailable`: the ids of the cart rows concerned. */
  rows?: string[];
  /**
   * `product/invalid`, `category/invalid`, `settings/invalid`, `order/invalid-address`…: the field the message is about
   * (`name`, `sizes.2.stock`, `shop.phone`, `address.region`…).
   */
  field?: string;
  /** `order/discount-unavailable`: the code of the discount's own refusal (`discount/used-up`, ...). */
  reason?: string;
}
