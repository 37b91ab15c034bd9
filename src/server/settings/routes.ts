import { Hono } from 'hono';
import { endpoints } from '../../shared/api';
import type { ErrorCode } from '../../shared/errors';
import { card } from '../../shared/payment/card';
import { collection } from '../../shared/payment/collection';
import { publicShopOf } from '../../shared/settings';
import type { AppEnv } from '../app-env';
import type { Sessions } from '../auth/sessions';
import { HttpError } from '../http/errors';
import { readJson } from '../http/input';
import { countryPlaces, placeProblem, regionsOf, shopAddressProblem, taxPlaceProblem } from '../places/places';
import type { SettingsStore } from './settings-store';

/** The form's sections: a problem with one is `settings/invalid`, with the field's path for the form to show it. */
const formFields: Record<string, ErrorCode> = {
  shop: 'settings/invalid',
  bankTransfer: 'settings/invalid',
  paymentMethods: 'settings/invalid',
  shipping: 'settings/invalid',
  tax: 'settings/invalid',
};

export interface SettingsRouteParts {
  sessions: Sessions;
  settings: SettingsStore;
  /** Whether this server takes cards (Stripe's keys are set): without, Card alone would leave checkout nothing. */
  takesCards: boolean;
}

/** What the owner is told when riders may pay on collection but not collect. */
const payOnCollectionMessage = "'Pay on collection' needs 'Collect at the yard': offer both, or neither.";

/** What the owner is told when the only method offered is one this server cannot take. */
const cardAloneMessage = "Card needs Stripe's keys, which this server does not have: offer another method too.";

/**
 * The shop's settings (docs/product.md §17): what every page shows of them, for anyone; the owner's form, owners
 * only, like the rest of the back office. A save answers the settings as they now are, with their new version.
 */
export function settingsRoutes({ sessions, settings, takesCards }: SettingsRouteParts) {
  const owner = sessions.require({ owner: true });
  return new Hono<AppEnv>()
    .get(endpoints.shop.path, async (c) => c.json(publicShopOf(await settings.current())))

    .get(endpoints.countries.path, (c) => c.json({ countries: countryPlaces }))

    .get(endpoints.regions.path, (c) => {
      const regions = regionsOf(c.req.param('country') ?? '');
      if (regions === undefined) throw new HttpError('places/unknown-country');
      return c.json({ regions });
    })

    .get(endpoints.adminSettings.path, owner, async (c) => c.json(await settings.withHistory()))

    .put(endpoints.adminSaveSettings.path, owner, async (c) => {
      const edit = await readJson(c, endpoints.adminSaveSettings.body, formFields);
      if (!takesCards && edit.paymentMethods.every((id) => id === card.id)) {
        throw new HttpError('settings/invalid', cardAloneMessage, {}, { field: 'paymentMethods' });
      }
      const place =
        shopAddressProblem(edit.shop.address) ??
        (edit.returns.address && shopAddressProblem(edit.returns.address, 'returns.address')) ??
        placeProblem(edit.shipping) ??
        taxPlaceProblem(edit.tax);
      if (place) throw new HttpError('settings/invalid', place.message, {}, { field: place.field });
      if (edit.paymentMethods.includes(collection.id) && !edit.shipping.collection.offered) {
        throw new HttpError('settings/invalid', payOnCollectionMessage, {}, { field: 'paymentMethods' });
      }
      const result = await settings.save(c.get('session').user, edit);
      if (!result.ok) throw new HttpError('settings/changed');
      return c.json({ settings: result.settings });
    });
}
