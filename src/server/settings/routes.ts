import { Hono } from 'hono';
import { endpoints } from '../../shared/api';
import type { ErrorCode } from '../../shared/errors';
import { publicShopOf } from '../../shared/settings';
import type { AppEnv } from '../app-env';
import type { Sessions } from '../auth/sessions';
import { HttpError } from '../http/errors';
import { readJson } from '../http/input';
import type { SettingsStore } from './settings-store';

/** The form's sections: a problem with one is `settings/invalid`, with the field's path for the form to show it. */
const formFields: Record<string, ErrorCode> = {
  shop: 'settings/invalid',
  bankTransfer: 'settings/invalid',
  paymentMethods: 'settings/invalid',
};

/**
 * The shop's settings (docs/product.md §17): what every page shows of them, for anyone; the owner's form, owners
 * only, like the rest of the back office. A save answers the settings as they now are, with their new version.
 */
export function settingsRoutes({ sessions, settings }: { sessions: Sessions; settings: SettingsStore }) {
  const owner = sessions.require({ owner: true });
  return new Hono<AppEnv>()
    .get(endpoints.shop.path, async (c) => c.json(publicShopOf(await settings.current())))

    .get(endpoints.adminSettings.path, owner, async (c) => c.json(await settings.withHistory()))

    .put(endpoints.adminSaveSettings.path, owner, async (c) => {
      const edit = await readJson(c, endpoints.adminSaveSettings.body, formFields, { field: true });
      const result = await settings.save(c.get('session').user, edit);
      if (!result.ok) throw new HttpError('settings/changed');
      return c.json({ settings: result.settings });
    });
}
