/** Shapes that cross the wire between the browser and the server. See docs/API.md. */
export interface SessionUser {
  uid: string;
  email: string;
}

export interface CartItem {
  id: string;
  uid: string;
  itemid: string;
  name: string;
  /** Integer cents. */
  priceCents: number;
  details: string;
}

/** Live cart stream events (Server-Sent Events on GET /api/cart/stream). */
export type CartEvent =
  | { type: 'snapshot'; items: CartItem[] }
  | { type: 'added'; item: CartItem }
  | { type: 'removed'; id: string }
  | { type: 'signed-out' };

/** The app's routes, shared by the client router and the server (which answers other paths with 404). */
export const pageRoutes = {
  home: '/home',
  cart: '/cart',
  signupLogin: '/signup-login',
  manageAccount: '/manage-account',
} as const;
