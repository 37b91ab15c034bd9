import { useEffect, useId, useState } from 'react';
import type { Place } from '../../../shared/api';
import { Field } from '../../components/field';
import { countries as loadCountries, useRegionLists } from '../../lib/places';
import type { ZoneProps } from './shipping-settings-values';

/** The places' names: every country, and the subdivisions of each country the zones name (src/client/lib/places.ts). */
export function usePlaces(countries: readonly string[]) {
  const [countryList, setCountryList] = useState<readonly Place[]>([]);
  const regions = useRegionLists(countries);
  useEffect(() => {
    let live = true;
    loadCountries().then(
      (list) => {
        if (live) setCountryList(list);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);
  const countryName = (code: string) => countryList.find((c) => c.code === code)?.name ?? code;
  const regionName = (country: string, code: string) =>
    regions.get(country)?.find((r) => r.code === code)?.name ?? code;
  return { countryList, regions, countryName, regionName };
}

export type Places = ReturnType<typeof usePlaces>;

/** A zone's countries, each whole or some of its regions, chosen from the lists of GET /api/places. */
export function ZonePlaces({ zone, index, places, problemAt, editZone }: ZoneProps & { places: Places }) {
  const id = useId();
  const [adding, setAdding] = useState('');
  const at = `shipping.zones.${index}.places`;
  const listProblem = problemAt(at);
  const chosen = new Set(zone.places.map((place) => place.country));
  const offered = places.countryList.filter((country) => !chosen.has(country.code));
  const toAdd = adding !== '' && !chosen.has(adding) ? adding : (offered[0]?.code ?? '');

  return (
    <fieldset className="shipping-places" aria-describedby={listProblem ? `${id}-error` : undefined}>
      <legend className="sizes-legend">Countries of zone {index + 1}</legend>
      {zone.places.length === 0 && <p className="field-hint">No country yet.</p>}
      <ul className="shipping-place-list">
        {zone.places.map((place, p) => (
          <PlaceRow
            key={place.country}
            zone={zone}
            index={index}
            placeIndex={p}
            places={places}
            problemAt={problemAt}
            editZone={editZone}
          />
        ))}
      </ul>
      {listProblem && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {listProblem}
        </p>
      )}
      <div className="shipping-add">
        <Field
          label={`Country to add to zone ${index + 1}`}
          name={`${zone.key}-country`}
          autoComplete="off"
          value={toAdd}
          options={offered.map((country) => [country.code, country.name] as const)}
          error={undefined}
          onChange={(event) => setAdding(event.target.value)}
          onBlur={() => {}}
        />
        <button
          type="button"
          className="button button-quiet"
          disabled={toAdd === ''}
          onClick={() =>
            editZone(index, '.places', (z) => ({ ...z, places: [...z.places, { country: toAdd, regions: [] }] }))
          }
        >
          Add country
        </button>
      </div>
    </fieldset>
  );
}

/** One country of a zone: all of it, or the regions listed; a region is added from the country's list. */
function PlaceRow({
  zone,
  index,
  placeIndex,
  places,
  problemAt,
  editZone,
}: ZoneProps & { placeIndex: number; places: Places }) {
  const id = useId();
  const place = zone.places[placeIndex];
  const [adding, setAdding] = useState('');
  if (place === undefined) return null;
  const at = `shipping.zones.${index}.places.${placeIndex}`;
  const name = places.countryName(place.country);
  const regions = places.regions.get(place.country) ?? [];
  const offered = regions.filter((region) => !place.regions.includes(region.code));
  const toAdd = adding !== '' && !place.regions.includes(adding) ? adding : (offered[0]?.code ?? '');
  const problems = [
    problemAt(`${at}.country`),
    ...place.regions.map((_, r) => problemAt(`${at}.regions.${r}`)),
    problemAt(`${at}.regions`),
  ].filter((problem): problem is string => problem !== undefined);

  function setRegions(change: (list: string[]) => string[]) {
    editZone(index, `.places.${placeIndex}.regions`, (z) => ({
      ...z,
      places: z.places.map((p, i) => (i === placeIndex ? { ...p, regions: change(p.regions) } : p)),
    }));
  }

  return (
    <li className="shipping-place">
      <p id={`${id}-name`}>
        <strong>{name}</strong>
        {place.regions.length === 0
          ? ': all of it'
          : `: ${place.regions.map((code) => places.regionName(place.country, code)).join(', ')}`}
      </p>
      {problems.map((problem) => (
        <p key={problem} className="field-error" role="alert">
          {problem}
        </p>
      ))}
      <div className="size-actions">
        {place.regions.map((code) => (
          <button
            key={code}
            type="button"
            className="button button-quiet"
            onClick={() => setRegions((list) => list.filter((r) => r !== code))}
          >
            Remove {places.regionName(place.country, code)}
          </button>
        ))}
        <button
          type="button"
          className="button button-quiet"
          onClick={() =>
            editZone(index, '.places', (z) => ({ ...z, places: z.places.filter((_, i) => i !== placeIndex) }))
          }
        >
          Remove {name}
        </button>
      </div>
      {regions.length > 0 && (
        <div className="shipping-add">
          <Field
            label={`Region of ${name} (optional: only these regions)`}
            name={`${zone.key}-${place.country}-region`}
            autoComplete="off"
            value={toAdd}
            options={offered.map((region) => [region.code, region.name] as const)}
            error={undefined}
            onChange={(event) => setAdding(event.target.value)}
            onBlur={() => {}}
          />
          <button
            type="button"
            className="button button-quiet"
            disabled={toAdd === ''}
            onClick={() => setRegions((list) => [...list, toAdd])}
          >
            Add region
          </button>
        </div>
      )}
    </li>
  );
}
