import { useSyncExternalStore } from 'react';
import type { PublicShop, ShopFormat } from '../../shared/settings';
import { call } from './api';
import { shopFromPage } from './page-data';

/**
 * What every page shows of the shop's settings (the header's name, the footer's address and phone, 'How to pay'):
 * first from the page's HTML, else from the server once asked; then as every live stream tells when the owner saves
 * the settings (its `shop` event, src/client/lib/live-events.ts). Until the server has said, an empty shop: the
 * header and footer stay blank rather than show another shop's details.
 */
const unknownShop: PublicShop = {
  shop: {
    name: '',
    legalName: '',
    address: { line1: '', line2: '', city: '', region: '', postalCode: '', country: '' },
    phone: '',
    email: '',
    taxId: '',
  },
  // Members only until the server says otherwise: a visitor is never shown a page the shop may keep for riders.
  access: { openTo: 'members' },
  // No currency ('XXX', ISO 4217's code for none) until the shop is known.
  format: { currency: 'XXX', locale: 'en-US', timeZone: 'UTC' },
  bankTransfer: {
    payWithinDays: 0,
    accountName: '',
    bankName: '',
    routingNumber: '',
    accountNumber: '',
    cancelUnpaid: false,
  },
};

let state: PublicShop = shopFromPage ?? unknownShop;
// The page's shop, or the server's answer on its way: asked once, and again after a failure.
let asked: unknown = shopFromPage;
const listeners = new Set<() => void>();

/** The shop as the owner has just saved it. */
export function setShop(next: PublicShop): void {
  state = next;
  for (const listener of listeners) listener();
}

const ask = () =>
  (asked ??= call('shop').then(setShop, () => {
    asked = undefined;
  }));

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  ask();
  return () => listeners.delete(listener);
}

/**
 * Whether a visitor may browse the shop (docs/product.md §23), as the page's HTML and every live stream since have
 * said, once the server has said it: a page without the shop in its HTML (one brought back from the browser's history,
 * ADR 0063) asks first. Not when it cannot be asked.
 */
export async function openToVisitors(): Promise<boolean> {
  await ask();
  return state.access.openTo === 'everyone';
}

const snapshot = () => state;

/** On the server too (src/client/server-render.tsx), where `setShop` has just given it the request's shop. */
export function useShop(): PublicShop {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** How the shop's amounts and dates read (its settings' currency, locale and time zone), following the owner's saves. */
export function useFormat(): ShopFormat {
  return useShop().format;
}
