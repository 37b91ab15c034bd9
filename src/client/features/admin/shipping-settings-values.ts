import { formatAmount, type MoneyFormat, parseCents } from '../../../shared/money';
import {
  collectionMethodId,
  type ShippingMethod,
  type ShippingSettings,
  type ShippingZone,
  type ZonePlace,
} from '../../../shared/settings';

/**
 * The owner's shipping form as typed (docs/product.md §18): prices in dollars and cents and weights as text, and the
 * settings they make. A zone or method keeps its id once saved; a new one gets its id from its name when the form is
 * checked (`shippingOf`), so that the owner never types one.
 */
export interface BandDraft {
  key: string;
  upToGrams: string;
  price: string;
}

export interface MethodDraft {
  key: string;
  /** Empty until saved: the form makes it from the name. */
  id: string;
  name: string;
  kind: 'flat' | 'bands';
  /** The flat price. */
  price: string;
  bands: BandDraft[];
  freeFrom: string;
  estimate: string;
}

export interface ZoneDraft {
  key: string;
  id: string;
  name: string;
  places: ZonePlace[];
  methods: MethodDraft[];
}

/** What each part of a zone's form (shipping-zone-places.tsx, shipping-zone-methods.tsx) is given. */
export interface ZoneProps {
  zone: ZoneDraft;
  index: number;
  problemAt(path: string): string | undefined;
  editZone(index: number, path: string, change: (zone: ZoneDraft) => ZoneDraft): void;
}

export interface ShippingDraft {
  zones: ZoneDraft[];
  collection: ShippingSettings['collection'];
}

let made = 0;
/** A key for React and the form's focus, unique on the page. */
export function newKey(): string {
  made += 1;
  return `k${made}`;
}

export function newBand(): BandDraft {
  return { key: newKey(), upToGrams: '', price: '' };
}

export function newMethod(): MethodDraft {
  return { key: newKey(), id: '', name: '', kind: 'flat', price: '', bands: [newBand()], freeFrom: '', estimate: '' };
}

export function newZone(): ZoneDraft {
  return { key: newKey(), id: '', name: '', places: [], methods: [newMethod()] };
}

function methodDraft(method: ShippingMethod, format: MoneyFormat): MethodDraft {
  const { price } = method;
  const amount = (cents: number) => formatAmount(cents, format);
  return {
    key: newKey(),
    id: method.id,
    name: method.name,
    kind: price.kind,
    price: price.kind === 'flat' ? amount(price.cents) : '',
    bands:
      price.kind === 'bands'
        ? price.bands.map((band) => ({ key: newKey(), upToGrams: String(band.upToGrams), price: amount(band.cents) }))
        : [newBand()],
    freeFrom: method.freeFromCents === null ? '' : amount(method.freeFromCents),
    estimate: method.estimate,
  };
}

/** The form's draft of the shipping section, its prices as the shop writes amounts (`format`). */
export function shippingDraft(shipping: ShippingSettings, format: MoneyFormat): ShippingDraft {
  return {
    zones: shipping.zones.map((zone) => ({
      key: newKey(),
      id: zone.id,
      name: zone.name,
      places: zone.places.map((place) => ({ country: place.country, regions: [...place.regions] })),
      methods: zone.methods.map((method) => methodDraft(method, format)),
    })),
    collection: { ...shipping.collection },
  };
}

/** An id from a name ('Express post' -> 'express-post'), with a number after it when another has it. */
export function idFrom(name: string, fallback: string, taken: Set<string>): string {
  const slug =
    name
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 32)
      .replace(/-+$/, '') || fallback;
  let id = slug;
  for (let n = 2; taken.has(id); n += 1) id = `${slug}-${n}`;
  taken.add(id);
  return id;
}

/** Cents as typed; NaN (which the schema calls 'must be an amount') for anything the parser refuses. */
function centsOf(text: string, format: MoneyFormat): number {
  return parseCents(text, format) ?? Number.NaN;
}

function gramsOf(text: string): number {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** The shipping section the form makes, for the settings' schema to check (the server checks it again). */
export function shippingOf(draft: ShippingDraft, format: MoneyFormat): ShippingSettings {
  const zoneIds = new Set(draft.zones.map((zone) => zone.id).filter(Boolean));
  const methodIds = new Set([
    collectionMethodId,
    ...draft.zones.flatMap((zone) => zone.methods.map((method) => method.id).filter(Boolean)),
  ]);
  const zones: ShippingZone[] = draft.zones.map((zone) => ({
    id: zone.id || idFrom(zone.name, 'zone', zoneIds),
    name: zone.name,
    places: zone.places,
    methods: zone.methods.map((method) => ({
      id: method.id || idFrom(method.name, 'method', methodIds),
      name: method.name,
      price:
        method.kind === 'flat'
          ? { kind: 'flat', cents: centsOf(method.price, format) }
          : {
              kind: 'bands',
              bands: method.bands.map((band) => ({
                upToGrams: gramsOf(band.upToGrams),
                cents: centsOf(band.price, format),
              })),
            },
      freeFromCents: method.freeFrom.trim() === '' ? null : centsOf(method.freeFrom, format),
      estimate: method.estimate,
    })),
  }));
  return { zones, collection: draft.collection };
}
