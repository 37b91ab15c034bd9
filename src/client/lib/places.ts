import { useEffect, useState } from 'react';
import { regionCodePattern } from '../../shared/address';
import type { Place } from '../../shared/api';
import { call } from './api';
import { placesFromPage } from './page-data';

/**
 * The places' names the browser asks the server for (GET /api/places, ISO 3166 from the `iso-3166` package), each list
 * once per page load: the countries, and a country's subdivisions when a form or an address needs them. Those the
 * page's HTML came with (the checkout's) are not asked for.
 */
let countryList: Promise<readonly Place[]> | undefined = placesFromPage && Promise.resolve(placesFromPage.countries);
const regionLists = new Map<string, Promise<readonly Place[]>>(
  Object.entries(placesFromPage?.regions ?? {}).map(
    ([country, regions]) => [country, Promise.resolve(regions)] as const,
  ),
);

export function countries(): Promise<readonly Place[]> {
  countryList ??= call('countries').then(
    (reply) => reply.countries,
    (error: unknown) => {
      // Out of reach for now: the next asks again.
      countryList = undefined;
      throw error;
    },
  );
  return countryList;
}

export function regionsOf(country: string): Promise<readonly Place[]> {
  let list = regionLists.get(country);
  if (list === undefined) {
    list = call('regions', { params: { country } }).then(
      (reply) => reply.regions,
      (error: unknown) => {
        regionLists.delete(country);
        throw error;
      },
    );
    regionLists.set(country, list);
  }
  return list;
}

/** A country's subdivisions; undefined until they are in (or for no country: ''). */
export function useRegions(country: string): readonly Place[] | undefined {
  const [loaded, setLoaded] = useState<{ country: string; regions: readonly Place[] } | null>(null);
  useEffect(() => {
    if (country === '') return;
    let live = true;
    regionsOf(country).then(
      (regions) => {
        if (live) setLoaded({ country, regions });
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [country]);
  return loaded?.country === country ? loaded.regions : undefined;
}

/** The subdivisions of each of `countries`, by country, as their lists come in (a country not in yet is missing). */
export function useRegionLists(countries: readonly string[]): ReadonlyMap<string, readonly Place[]> {
  const [regions, setRegions] = useState<ReadonlyMap<string, readonly Place[]>>(new Map());
  const wanted = [...new Set(countries)].filter((country) => country !== '' && !regions.has(country)).join(' ');
  useEffect(() => {
    if (wanted === '') return;
    let live = true;
    for (const country of wanted.split(' ')) {
      regionsOf(country).then(
        (list) => {
          if (live) setRegions((current) => new Map(current).set(country, list));
        },
        () => {},
      );
    }
    return () => {
      live = false;
    };
  }, [wanted]);
  return regions;
}

/**
 * addressLines' `regionName` for an address shown in the browser: the subdivision's name once its country's list is
 * in, the code until then (and a region typed as text, as it is).
 */
export function useRegionName(address: { country: string; region: string }): (code: string) => string | undefined {
  const regions = useRegions(regionCodePattern.test(address.region) ? address.country : '');
  return (code) => regions?.find((region) => region.code === code)?.name;
}
