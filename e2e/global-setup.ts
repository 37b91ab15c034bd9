import { makeFreshShopTemplate } from './shops';

/** Once per run, before the tests: the database every fresh shop starts as (e2e/shops.ts, `freshShopTemplate`). */
export default function globalSetup(): void {
  if (!process.env.E2E_BASE_URL) makeFreshShopTemplate();
}
