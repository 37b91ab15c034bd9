/**
 * The shipping section of the shop's settings (src/shared/settings.ts; docs/product.md §18,
 * docs/decisions/0035-shipping-zones.md): zones of places, each with its delivery methods and their prices, and
 * 'Collect at the yard'. The prices' arithmetic is src/server/pricing/shipping.ts's.
 */
import './zod-config';
import { z } from 'zod';
import { line, required, settingsLimits } from './settings-fields';

/** The shipping section's bounds: what one owner's form can hold. */
export const shippingLimits = {
  zonesMax: 40,
  placesMax: 250,
  regionsMax: 100,
  methodsMax: 10,
  bandsMax: 20,
  methodNameMax: 40,
  estimateMax: 80,
  /** $100,000.00: more than any order's shipping. */
  centsMax: 10_000_000,
  /** 1,000 kg. */
  gramsMax: 1_000_000,
} as const;

/** A zone's or method's id: chosen once (the owner's form makes it), the same in every save and every order. */
const idSchema = z
  .string({ error: 'An id must be text.' })
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'An id is 1 to 40 small letters, digits and hyphens.');

function cents(name: string) {
  return z
    .number({ error: `${name} must be an amount.` })
    .int(`${name} must be in whole cents.`)
    .min(0, `${name} cannot be negative.`)
    .max(shippingLimits.centsMax, `${name} must be at most $${shippingLimits.centsMax / 100}.`);
}

/** One band of a price by weight: an order weighing up to `upToGrams` (and more than the band before) pays `cents`. */
export const weightBandSchema = z.strictObject({
  upToGrams: z
    .number({ error: 'Up to (grams) must be a number.' })
    .int('Up to (grams) must be whole grams.')
    .min(1, 'Up to (grams) must be at least 1.')
    .max(shippingLimits.gramsMax, `Up to (grams) must be at most ${shippingLimits.gramsMax}.`),
  cents: cents('Price'),
});

/** A method's price: one for every order, or by the order's weight in ascending bands. */
export const shippingPriceSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('flat'), cents: cents('Price') }),
    z.strictObject({
      kind: z.literal('bands'),
      bands: z
        .array(weightBandSchema)
        .min(1, 'Give at least one weight band.')
        .max(shippingLimits.bandsMax, `At most ${shippingLimits.bandsMax} weight bands.`)
        .superRefine((bands, context) => {
          bands.forEach((band, index) => {
            const before = bands[index - 1];
            if (before !== undefined && band.upToGrams <= before.upToGrams) {
              context.addIssue({
                code: 'custom',
                path: [index, 'upToGrams'],
                message: `The bands overlap: this one must go above ${before.upToGrams} g.`,
              });
            }
          });
        }),
    }),
  ],
  { error: 'A price is flat or by weight.' },
);
export type ShippingPrice = z.infer<typeof shippingPriceSchema>;

/** One way a zone's orders are delivered ('Standard', 'Express'), with its price and estimate. */
export const shippingMethodSchema = z.strictObject({
  id: idSchema,
  name: required('Name', shippingLimits.methodNameMax),
  price: shippingPriceSchema,
  /** The subtotal from which it is free; null: never free. */
  freeFromCents: cents('Free from').nullable(),
  /** '3 to 5 working days'; may be empty. */
  estimate: line('Delivery estimate', shippingLimits.estimateMax),
});
export type ShippingMethod = z.infer<typeof shippingMethodSchema>;

/** A country a zone covers: all of it (no regions), or the ISO 3166-2 subdivisions listed ('US-FL'). */
export const zonePlaceSchema = z.strictObject({
  country: z.string({ error: 'A country must be a code.' }).regex(/^[A-Z]{2}$/, 'A country is a code such as US.'),
  regions: z
    .array(
      z
        .string({ error: 'A region must be a code.' })
        .regex(/^[A-Z]{2}-[A-Z0-9]{1,3}$/, 'A region is a code such as US-FL.'),
    )
    .max(shippingLimits.regionsMax, `At most ${shippingLimits.regionsMax} regions of one country.`),
});
export type ZonePlace = z.infer<typeof zonePlaceSchema>;

export const shippingZoneSchema = z.strictObject({
  id: idSchema,
  name: required('Zone name', settingsLimits.nameMax),
  places: z
    .array(zonePlaceSchema)
    .min(1, 'A zone covers at least one country.')
    .max(shippingLimits.placesMax, `At most ${shippingLimits.placesMax} countries in one zone.`),
  methods: z
    .array(shippingMethodSchema)
    .min(1, 'A zone offers at least one delivery method.')
    .max(shippingLimits.methodsMax, `At most ${shippingLimits.methodsMax} methods in one zone.`),
});
export type ShippingZone = z.infer<typeof shippingZoneSchema>;

/** 'Collect at the yard': free, no address, the only delivery 'Pay on collection' goes with. */
export const collectionSettingsSchema = z.strictObject({
  offered: z.boolean({ error: 'Say whether riders may collect.' }),
  /** 'Ready the next working day'; may be empty. */
  estimate: line('Delivery estimate', shippingLimits.estimateMax),
});

/** The id of 'Collect at the yard' among the methods a checkout lists: no zone's method may take it. */
export const collectionMethodId = 'collection';

export const shippingSettingsSchema = z
  .strictObject({
    zones: z.array(shippingZoneSchema).max(shippingLimits.zonesMax, `At most ${shippingLimits.zonesMax} zones.`),
    collection: collectionSettingsSchema,
  })
  .superRefine(({ zones }, context) => {
    const zoneIds = new Set<string>();
    const methodIds = new Set<string>([collectionMethodId]);
    zones.forEach((zone, z) => {
      if (zoneIds.has(zone.id))
        context.addIssue({ code: 'custom', path: ['zones', z, 'id'], message: 'Zone ids must differ.' });
      zoneIds.add(zone.id);
      const countries = new Set<string>();
      zone.places.forEach((place, p) => {
        if (countries.has(place.country)) {
          context.addIssue({
            code: 'custom',
            path: ['zones', z, 'places', p, 'country'],
            message: `${place.country} is listed twice in this zone.`,
          });
        }
        countries.add(place.country);
        place.regions.forEach((region, r) => {
          if (!region.startsWith(`${place.country}-`)) {
            context.addIssue({
              code: 'custom',
              path: ['zones', z, 'places', p, 'regions', r],
              message: `${region} is not a region of ${place.country}.`,
            });
          }
        });
      });
      zone.methods.forEach((method, m) => {
        if (methodIds.has(method.id)) {
          context.addIssue({
            code: 'custom',
            path: ['zones', z, 'methods', m, 'id'],
            message: 'Method ids must differ.',
          });
        }
        methodIds.add(method.id);
      });
    });
  });
export type ShippingSettings = z.infer<typeof shippingSettingsSchema>;
