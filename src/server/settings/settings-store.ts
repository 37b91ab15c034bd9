import { shopAddressText } from '../../shared/address';
import {
  openToLabels,
  percentOfRate,
  type SettingsChange,
  type SettingsEdit,
  type ShippingSettings,
  type ShopSettings,
  shopSettingsSchema,
  type TaxSettings,
  type VersionedSettings,
} from '../../shared/settings';
import type { Owner } from '../auth/owner';
import type { Db, UnitOfWork } from '../db/database';
import { settingsTopic } from './changes';

export type SaveResult =
  | { ok: true; settings: VersionedSettings }
  /** The settings are no longer the version the owner's form was filled from. */
  | { ok: false; reason: 'changed' };

/** The history keeps every save; the owner's page shows this many of them (the newest). */
const historyShown = 200;

/** Each text or number field's name in the history, by section (the bank transfer's switch has its own sentence). */
const fieldNames = {
  shop: { name: 'Name', legalName: 'Legal name', address: 'Address', phone: 'Phone', email: 'E-mail', taxId: 'Tax id' },
  format: { currency: 'Currency', locale: 'Language and region', timeZone: 'Time zone' },
  bankTransfer: {
    payWithinDays: 'Days to pay',
    accountName: 'Account name',
    bankName: 'Bank',
    routingNumber: 'Routing number',
    accountNumber: 'Account number',
  },
} as const satisfies {
  shop: Record<keyof ShopSettings['shop'], string>;
  format: Record<keyof ShopSettings['format'], string>;
  bankTransfer: Record<Exclude<keyof ShopSettings['bankTransfer'], 'cancelUnpaid'>, string>;
};

const quoted = (value: string | number) => `“${value}”`;

/** The history's sentences for the shipping section: a zone added, removed, changed or moved; collection. */
function describeShipping(before: ShippingSettings, after: ShippingSettings): string[] {
  const what: string[] = [];
  const old = new Map(before.zones.map((zone) => [zone.id, zone]));
  const now = new Map(after.zones.map((zone) => [zone.id, zone]));
  for (const zone of before.zones) if (!now.has(zone.id)) what.push(`Shipping zone ${quoted(zone.name)} removed`);
  for (const zone of after.zones) {
    const was = old.get(zone.id);
    if (was === undefined) what.push(`Shipping zone ${quoted(zone.name)} added`);
    else if (JSON.stringify(was) !== JSON.stringify(zone)) what.push(`Shipping zone ${quoted(zone.name)} changed`);
  }
  const order = (zones: readonly { id: string }[]) => zones.filter((zone) => old.has(zone.id) && now.has(zone.id));
  if (
    order(before.zones)
      .map((zone) => zone.id)
      .join() !==
    order(after.zones)
      .map((zone) => zone.id)
      .join()
  ) {
    what.push(`Shipping zones reordered: ${after.zones.map((zone) => quoted(zone.name)).join(', ')}`);
  }
  if (before.collection.offered !== after.collection.offered) {
    what.push(`Collect at the yard ${after.collection.offered ? 'offered' : 'no longer offered'}`);
  }
  if (before.collection.estimate !== after.collection.estimate) {
    what.push(`Collection estimate ${quoted(before.collection.estimate)} → ${quoted(after.collection.estimate)}`);
  }
  return what;
}

/** The history's sentences for the tax section: its two choices, and each rate added or removed (a change is both). */
function describeTax(before: TaxSettings, after: TaxSettings): string[] {
  const what: string[] = [];
  if (before.pricesIncludeTax !== after.pricesIncludeTax) {
    what.push(`Prices ${after.pricesIncludeTax ? 'include' : 'no longer include'} tax`);
  }
  if (before.taxShipping !== after.taxShipping) {
    what.push(`Tax ${after.taxShipping ? 'charged' : 'no longer charged'} on shipping`);
  }
  const rateText = (rate: TaxSettings['rates'][number]) =>
    `${quoted(rate.name)} ${percentOfRate(rate.rate)}% for ${[rate.country, rate.region, rate.postalPrefix && `postal codes ${rate.postalPrefix}…`].filter(Boolean).join(' ')}`;
  const old = new Set(before.rates.map(rateText));
  const now = new Set(after.rates.map(rateText));
  for (const text of old) if (!now.has(text)) what.push(`Tax rate ${text} removed`);
  for (const text of now) if (!old.has(text)) what.push(`Tax rate ${text} added`);
  return what;
}

/** The history's sentences for a save: one for each field it changes; none when it changes nothing. */
function describeSave(before: ShopSettings, after: ShopSettings): string[] {
  const what: string[] = [];
  if (before.access.openTo !== after.access.openTo) {
    what.push(
      `Who can see the shop ${quoted(openToLabels[before.access.openTo])} → ${quoted(openToLabels[after.access.openTo])}`,
    );
  }
  for (const section of ['shop', 'format', 'bankTransfer'] as const) {
    const names: Record<string, string> = fieldNames[section];
    // The address as it prints, in one block.
    const text = (settings: ShopSettings): Record<string, unknown> =>
      section === 'shop'
        ? { ...settings.shop, address: shopAddressText(settings.shop.address, settings.format.locale) }
        : settings[section];
    const old = text(before);
    const now = text(after);
    for (const [field, name] of Object.entries(names)) {
      if (old[field] !== now[field])
        what.push(`${name} ${quoted(String(old[field] ?? ''))} → ${quoted(String(now[field] ?? ''))}`);
    }
  }
  if (before.bankTransfer.cancelUnpaid !== after.bankTransfer.cancelUnpaid) {
    what.push(
      `Unpaid orders ${after.bankTransfer.cancelUnpaid ? 'cancelled' : 'no longer cancelled'} after a reminder`,
    );
  }
  what.push(...describeShipping(before.shipping, after.shipping));
  what.push(...describeTax(before.tax, after.tax));
  if (before.paymentMethods.join() !== after.paymentMethods.join()) {
    what.push(
      `Payment methods ${quoted(before.paymentMethods.join(', '))} → ${quoted(after.paymentMethods.join(', '))}`,
    );
  }
  return what;
}

/** The document as stored, read with today's rules: a section a later Piaffe adds is filled in by its migration. */
function toSettings(row: { document: string; version: number | string }): VersionedSettings {
  return { ...shopSettingsSchema.parse(JSON.parse(row.document)), version: Number(row.version) };
}

export type SettingsStore = ReturnType<typeof createSettingsStore>;

/**
 * The shop's settings (docs/product.md §17, docs/decisions/0034-the-shops-settings.md): one row, read by this module
 * alone. Every server keeps them in memory and drops them when the settings topic says they were saved, on any
 * server; a save is one unit of work with its history and its event.
 */
export function createSettingsStore(db: Db) {
  let generation = 0;
  let cached: { generation: number; settings: Promise<VersionedSettings> } | undefined;
  db.feed.subscribe(settingsTopic, () => {
    generation += 1;
    cached = undefined;
  });

  const row = db.precompile(0, () =>
    db.kysely.selectFrom('shop_settings').select(['document', 'version']).where('id', '=', 1),
  );
  // The last document read and what it says: every order reads the row in its transaction, and parses it only when
  // it is not the one read last.
  let lastRead: { document: string; version: number | string; settings: VersionedSettings } | undefined;

  async function read(uow?: UnitOfWork): Promise<VersionedSettings> {
    const [found] = await row(uow?.trx);
    if (!found) throw new Error('The shop has no settings row: its migrations did not run.');
    if (lastRead?.document !== found.document || lastRead.version !== found.version) {
      lastRead = { ...found, settings: toSettings(found) };
    }
    return lastRead.settings;
  }

  /**
   * The settings, from memory when nothing was saved since. Inside a unit of work (an e-mail written with an order),
   * pass it: on SQLite a read outside the unit would wait for the unit's own connection.
   */
  function current(uow?: UnitOfWork): Promise<VersionedSettings> {
    if (cached?.generation === generation) return cached.settings;
    const loading = read(uow);
    const entry = { generation, settings: loading };
    cached = entry;
    // A failed read is not kept: the next caller reads again.
    loading.catch(() => {
      if (cached === entry) cached = undefined;
    });
    return loading;
  }

  return {
    current,

    /**
     * The settings as the database has them in `uow`, not from memory: what an order is priced with, so that a save
     * committed on another server a moment ago counts even before its event arrives here.
     */
    inside: (uow: UnitOfWork): Promise<VersionedSettings> => read(uow),

    /** The settings for the owner's page, with the history of their saves, newest first. */
    async withHistory(): Promise<{ settings: VersionedSettings; history: SettingsChange[] }> {
      const changes = await db.kysely
        .selectFrom('settings_change')
        .select(['at', 'by_email', 'what'])
        .orderBy('seq', 'desc')
        .limit(historyShown)
        .execute();
      return {
        settings: await read(),
        history: changes.map((c) => ({ at: new Date(Number(c.at)).toISOString(), by: c.by_email, what: c.what })),
      };
    },

    /** Saves the owner's form, unless the settings were saved since it was filled (`version`). */
    save(owner: Owner, { version, ...edit }: SettingsEdit): Promise<SaveResult> {
      return db.run(async (uow) => {
        await uow.lock('settings', 'shop');
        const before = await read(uow);
        if (before.version !== version) return { ok: false, reason: 'changed' } as const;
        const { version: _, ...document } = before;
        const what = describeSave(document, edit);
        if (what.length === 0) return { ok: true, settings: before } as const;
        const at = Date.now();
        await uow.trx
          .updateTable('shop_settings')
          .set({ document: JSON.stringify(edit), version: before.version + 1, updated_at: at })
          .where('id', '=', 1)
          .execute();
        const last = await uow.trx
          .selectFrom('settings_change')
          .select((eb) => eb.fn.max('seq').as('seq'))
          .executeTakeFirst();
        await uow.trx
          .insertInto('settings_change')
          .values({
            seq: Number(last?.seq ?? 0) + 1,
            at,
            by_uid: owner.uid,
            by_email: owner.email,
            what: what.join('; '),
          })
          .execute();
        uow.publish(settingsTopic, { type: 'saved' });
        return { ok: true, settings: { ...edit, version: before.version + 1 } } as const;
      });
    },
  };
}
