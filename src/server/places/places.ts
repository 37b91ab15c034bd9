import { iso31661, iso31662 } from 'iso-3166';
import { type Address, countryName, type ShopAddress } from '../../shared/address';
import type { Place } from '../../shared/api';
import type { ShippingSettings, TaxSettings } from '../../shared/settings';

/**
 * The countries an address may be in and each one's subdivisions (ISO 3166-1 and 3166-2), for the address form's
 * country and state fields and the owner's shipping zones. The subdivisions come from a maintained package
 * (`iso-3166`), read here on the server alone: the browser asks for one country's at a time (GET /api/places), so that
 * none of them weighs on a page's script.
 */
const regionsByCountry = new Map<string, Place[]>();
const iso31662Parents = new Map<string, string>();
for (const { code, name, parent } of iso31662) {
  iso31662Parents.set(code, parent);
  const country = code.slice(0, 2);
  // A subdivision of a subdivision (a Spanish province in its community) is listed with the country's others.
  if (!parent.startsWith(country)) continue;
  const list = regionsByCountry.get(country) ?? [];
  list.push({ code, name });
  regionsByCountry.set(country, list);
}
for (const list of regionsByCountry.values()) list.sort((a, b) => a.name.localeCompare(b.name, 'en'));

/** ISO 3166-1's codes where no one lives to receive a parcel: Antarctica and five uninhabited islands' territories. */
const uninhabited = new Set(['AQ', 'BV', 'GS', 'HM', 'TF', 'UM']);

/** The countries and territories an address may be in: ISO 3166-1's, but for the uninhabited. */
export const countryCodes: readonly string[] = iso31661
  .map((country) => country.alpha2)
  .filter((code) => !uninhabited.has(code));

const countries = new Set<string>(countryCodes);

const regionNames = new Map<string, string>(iso31662.map(({ code, name }) => [code, name]));

/** A subdivision's name by its code ('Florida' for US-FL); undefined for anything else (addressLines' `regionName`). */
export function regionName(code: string): string | undefined {
  return regionNames.get(code);
}

/** The countries an address may be in, by name. */
export const countryPlaces: readonly Place[] = countryCodes
  .map((code) => ({ code, name: countryName(code) }))
  .sort((a, b) => a.name.localeCompare(b.name, 'en'));

/** A country's subdivisions by name; undefined for a code that is no country an address may be in. */
export function regionsOf(country: string): readonly Place[] | undefined {
  return countries.has(country) ? (regionsByCountry.get(country) ?? []) : undefined;
}

type PlaceProblem = { field: string; message: string } | undefined;

/** A country code that does not exist, or one of `regions` that is not among its subdivisions, with its field's path. */
function codeProblem(country: string, regions: readonly (string | null)[], at: string, regionAt: string): PlaceProblem {
  const known = regionsOf(country);
  if (known === undefined) return { field: `${at}.country`, message: `There is no country ${country}.` };
  for (const [r, region] of regions.entries()) {
    if (region !== null && !known.some((place) => place.code === region)) {
      return {
        field: `${at}.${regionAt.replace('#', String(r))}`,
        message: `${countryName(country)} has no region ${region}.`,
      };
    }
  }
  return undefined;
}

/** A problem with the zones' places: a country or subdivision code that does not exist, with its field's path. */
export function placeProblem(shipping: ShippingSettings): PlaceProblem {
  for (const [z, zone] of shipping.zones.entries()) {
    for (const [p, place] of zone.places.entries()) {
      const problem = codeProblem(place.country, place.regions, `shipping.zones.${z}.places.${p}`, 'regions.#');
      if (problem) return problem;
    }
  }
  return undefined;
}

/** A problem with the tax rates' places, as `placeProblem`'s with the zones'. */
export function taxPlaceProblem(tax: TaxSettings): PlaceProblem {
  for (const [r, rate] of tax.rates.entries()) {
    const problem = codeProblem(rate.country, [rate.region], `tax.rates.${r}`, 'region');
    if (problem) return problem;
  }
  return undefined;
}

/** A name as a rider may type it: any case, without accents, spaces or punctuation ('Hawai'i' is 'hawaii'). */
function folded(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * A subdivision's names as riders write them: its name, the name without what it adds in brackets, and each name of
 * one given as several ('Puducherry (Pondicherry)': Puducherry, Pondicherry; 'Bolama / Bijagós': both).
 */
function namesOf(name: string): string[] {
  const bracketed = /^(.*?)\s*\(([^)]*)\)\s*$/.exec(name);
  const plain = bracketed ? [name, bracketed[1] ?? '', bracketed[2] ?? ''] : [name];
  return [...plain, ...name.split('/')].map(folded).filter((n) => n !== '');
}

/** Each country's subdivisions by every spelling an address may give: the code, the code within it, the names. */
const regionsBySpelling = new Map<string, Map<string, string>>();
for (const [country, list] of regionsByCountry) {
  const spellings = new Map<string, string>();
  // The country's own subdivisions before those within them, so that a name both share ('Cantabria', a community and
  // its province) is the larger's.
  const ordered = [...list].sort((a, b) => Number(isNested(a.code)) - Number(isNested(b.code)));
  // Codes before names, so that no name takes a code's place.
  const named = [
    ...ordered.flatMap(({ code }) =>
      [folded(code), folded(code.slice(3))].map((spelling) => [spelling, code] as const),
    ),
    ...ordered.flatMap(({ code, name }) => namesOf(name).map((spelling) => [spelling, code] as const)),
  ];
  for (const [spelling, code] of named) if (!spellings.has(spelling)) spellings.set(spelling, code);
  regionsBySpelling.set(country, spellings);
}

function isNested(code: string): boolean {
  return iso31662Parents.get(code) !== code.slice(0, 2);
}

/**
 * The ISO 3166-2 code of the region an address names, as the rider may type it: the code ('US-FL'), the code within
 * its country ('FL', 'fl') or one of its names ('Florida', 'florida'; accents and punctuation aside); undefined when
 * it names none of the country's subdivisions.
 */
export function regionCode(country: string, typed: string): string | undefined {
  return regionsBySpelling.get(country)?.get(folded(typed));
}

type AddressPlace = Pick<Address, 'country' | 'region'>;

/**
 * An address's place as the shop reads it (docs/product.md §18): its country, and its region as the subdivision's
 * ISO 3166-2 code however it was given; a problem, with its field, when the country is none an address may be in, or
 * the region names none of its subdivisions (a country that has none takes its region as text). An empty region is
 * no problem here: a form still being filled, or a delivery that needs none (the order's rules say when it must be
 * given).
 */
export function readPlace<Place extends AddressPlace>(
  place: Place,
): { ok: true; place: Place } | { ok: false; field: 'country' | 'region'; message: string } {
  const regions = regionsOf(place.country);
  if (regions === undefined) return { ok: false, field: 'country', message: 'Choose a country from the list.' };
  if (regions.length === 0 || place.region.trim() === '') return { ok: true, place };
  const code = regionCode(place.country, place.region);
  if (code === undefined) return { ok: false, field: 'region', message: unknownRegionMessage(place.country) };
  return { ok: true, place: { ...place, region: code } };
}

/** What an address whose region is none of its country's subdivisions is told. */
function unknownRegionMessage(country: string): string {
  return `Choose the state or region of ${countryName(country)} from the list.`;
}

/**
 * A problem with one of the shop's own addresses (its own, or where returns go: `path` in the settings), with its field's path: a country that does not exist, or a region that is not
 * one of its subdivisions by code. The region is required where the country has subdivisions: an order collected at
 * the yard is taxed there (docs/product.md §19).
 */
export function shopAddressProblem(address: ShopAddress, path = 'shop.address'): PlaceProblem {
  const regions = regionsOf(address.country);
  if (regions === undefined) return { field: `${path}.country`, message: `There is no country ${address.country}.` };
  if (regions.length > 0 && !regions.some((region) => region.code === address.region)) {
    return { field: `${path}.region`, message: unknownRegionMessage(address.country) };
  }
  return undefined;
}
