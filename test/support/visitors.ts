import { expect } from 'vitest';
import type { OpenTo, VersionedSettings } from '../../src/shared/settings';
import type { Client } from './client';

/** The owner saves 'Who can see the shop' (docs/product.md §23), keeping every other setting as it is. */
export async function setOpenTo(owner: Client, openTo: OpenTo): Promise<void> {
  const current: VersionedSettings = (await owner.json('GET', '/api/admin/settings')).body.settings;
  const saved = await owner.json('PUT', '/api/admin/settings', { ...current, access: { openTo } });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
}

/** The visitor's cart cookie as the server set it (its whole Set-Cookie line), from a reply. */
export function cartCookieOf(headers: Headers): string | undefined {
  return headers.getSetCookie().find((line) => /^(__Secure-)?piaffe\.cart=/.test(line));
}
