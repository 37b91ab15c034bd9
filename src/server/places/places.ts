import { iso31661, iso31662 } from 'iso-3166';
import { type Address, countryName, regionCodePattern } from '../../shared/address';
import type { Place } from '../../shared/api';
import type { ShippingSettings, TaxSettings } from '../../shared/settings';

/**
 * The countries an address may be in and each one's subdivisions (ISO 3166-1 and 3166-2), for the address form's
 * country and state fields and the owner's shipping zones. The subdivisions come from a maintained package
 * (`iso-3166`), read here on the server alone: the browser asks for one country's at a time (GET /api/places), so that
 * none of them weighs on a page's script.
 */
const regionsByCountry = new Map<string, Place[]>();
for (const { code, name, parent } of iso31662) {
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

/**
 * The ISO 3166-2 code of the region an address names, as the rider may type it: the code ('US-FL'), the code within
 * its country ('FL', 'fl') or the name ('Florida'); what was typed when it is none of them.
 */
export function regionCode(country: string, typed: string): string {
  const wanted = typed.trim().toLowerCase();
  const found = regionsOf(country)?.find(
    ({ code, name }) =>
      code.toLowerCase() === wanted || code.slice(3).toLowerCase() === wanted || name.toLowerCase() === wanted,
  );
  return found?.code ?? typed;
}

/**
 * A problem with an address's place, with its field: a country that is no country an address may be in, or a region
 * given as a code that is none of its country's subdivisions. A region typed as text (an API client, an address from
 * before the list) is taken as it is: it matches only zones that cover the whole country.
 */
export function addressPlaceProblem({
  country,
  region,
}: Pick<Address, 'country' | 'region'>): { field: 'country' | 'region'; message: string } | undefined {
  const regions = regionsOf(country);
  if (regions === undefined) return { field: 'country', message: 'Choose a country from the list.' };
  if (regionCodePattern.test(region) && !regions.some((known) => known.code === region)) {
    return { field: 'region', message: `${countryName(country)} has no region ${region}.` };
  }
  return undefined;
}
