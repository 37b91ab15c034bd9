import { useEffect, useId, useState } from 'react';
import type { Place } from '../../../shared/api';
import { collectionName } from '../../../shared/shipping';
import { Field } from '../../components/field';
import { countries as loadCountries, useRegionLists } from '../../lib/places';
import { MoveButtons, moved } from './move-buttons';
import {
  type BandDraft,
  type MethodDraft,
  newBand,
  newMethod,
  newZone,
  type ShippingDraft,
  type ZoneDraft,
} from './shipping-settings-values';

interface ShippingSettingsProps {
  shipping: ShippingDraft;
  /** The problem to show beside a field, by its path in the settings ('shipping.zones.0.methods.1.name'). */
  problemAt(path: string): string | undefined;
  /** A change: the path of what changed, and the new section from the old. */
  onEdit(path: string, change: (shipping: ShippingDraft) => ShippingDraft): void;
  /** A field left: its problem shows from now on. */
  onLeave(path: string): void;
  focusNext(find: () => HTMLElement | null | undefined): void;
}

/** The places' names: every country, and the subdivisions of each country the zones name (src/client/lib/places.ts). */
function usePlaces(countries: readonly string[]) {
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

type Places = ReturnType<typeof usePlaces>;

/**
 * The shipping section of the owner's settings (docs/product.md §18): the zones in the order the checkout matches
 * them, each with its countries (or some of a country's regions) and its delivery methods, and 'Collect at the yard'.
 */
export function ShippingSettingsFields({ shipping, problemAt, onEdit, onLeave, focusNext }: ShippingSettingsProps) {
  const id = useId();
  const places = usePlaces([...new Set(shipping.zones.flatMap((zone) => zone.places.map((p) => p.country)))]);
  const zonesProblem = problemAt('shipping.zones');

  function editZone(index: number, path: string, change: (zone: ZoneDraft) => ZoneDraft) {
    onEdit(`shipping.zones.${index}${path}`, (current) => ({
      ...current,
      zones: current.zones.map((zone, z) => (z === index ? change(zone) : zone)),
    }));
  }

  function remove(index: number) {
    onEdit('shipping.zones', (current) => ({ ...current, zones: current.zones.filter((_, z) => z !== index) }));
    focusNext(() => document.getElementById(`${id}-add-zone`));
  }

  function add() {
    const zone = newZone();
    onEdit('shipping.zones', (current) => ({ ...current, zones: [...current.zones, zone] }));
    focusNext(() => document.querySelector<HTMLElement>(`[data-shipping-row="${zone.key}"] input`));
  }

  const collectionProblem = problemAt('shipping.collection.estimate');
  return (
    <fieldset className="sizes shipping" aria-describedby={`${id}-hint`}>
      <legend className="sizes-legend">Shipping</legend>
      <p id={`${id}-hint`} className="field-hint">
        An address is in the first zone that names its state or region, else in the first that covers its whole country.
        An address outside every zone cannot be ordered to.
      </p>
      {shipping.zones.map((zone, index) => (
        <fieldset key={zone.key} className="size-row shipping-zone" data-shipping-row={zone.key}>
          <legend className="sizes-legend">Zone {index + 1}</legend>
          <Field
            label="Zone name"
            name={`${zone.key}-name`}
            autoComplete="off"
            value={zone.name}
            error={problemAt(`shipping.zones.${index}.name`) ?? problemAt(`shipping.zones.${index}.id`)}
            announceError
            onChange={(event) => {
              const { value } = event.target;
              editZone(index, '.name', (z) => ({ ...z, name: value }));
            }}
            onBlur={() => onLeave(`shipping.zones.${index}.name`)}
          />
          <ZonePlaces zone={zone} index={index} places={places} problemAt={problemAt} editZone={editZone} />
          <ZoneMethods
            zone={zone}
            index={index}
            problemAt={problemAt}
            editZone={editZone}
            onLeave={onLeave}
            focusNext={focusNext}
          />
          <div className="size-actions">
            <MoveButtons
              index={index}
              count={shipping.zones.length}
              what={`zone ${index + 1}`}
              onMove={(by) =>
                onEdit('shipping.zones', (current) => ({ ...current, zones: moved(current.zones, index, by) }))
              }
            />
            <button type="button" className="button button-quiet" onClick={() => remove(index)}>
              Remove zone
            </button>
          </div>
        </fieldset>
      ))}
      {zonesProblem && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {zonesProblem}
        </p>
      )}
      <p>
        <button
          id={`${id}-add-zone`}
          type="button"
          className="button button-quiet"
          aria-describedby={zonesProblem ? `${id}-error` : undefined}
          onClick={add}
        >
          Add a zone
        </button>
      </p>
      <fieldset className="size-row shipping-collection">
        <legend className="sizes-legend">{collectionName}</legend>
        <div className="choice">
          <input
            type="checkbox"
            id={`${id}-collection`}
            checked={shipping.collection.offered}
            onChange={(event) => {
              const offered = event.target.checked;
              onEdit('shipping.collection.offered', (current) => ({
                ...current,
                collection: { ...current.collection, offered },
              }));
            }}
          />
          <label htmlFor={`${id}-collection`}>Riders may collect their order at the yard</label>
        </div>
        <Field
          label="Collection estimate"
          name="shipping.collection.estimate"
          autoComplete="off"
          value={shipping.collection.estimate}
          error={collectionProblem}
          announceError
          onChange={(event) => {
            const estimate = event.target.value;
            onEdit('shipping.collection.estimate', (current) => ({
              ...current,
              collection: { ...current.collection, estimate },
            }));
          }}
          onBlur={() => onLeave('shipping.collection.estimate')}
        />
      </fieldset>
    </fieldset>
  );
}

interface ZoneProps {
  zone: ZoneDraft;
  index: number;
  problemAt(path: string): string | undefined;
  editZone(index: number, path: string, change: (zone: ZoneDraft) => ZoneDraft): void;
}

/** A zone's countries, each whole or some of its regions, chosen from the lists of GET /api/places. */
function ZonePlaces({ zone, index, places, problemAt, editZone }: ZoneProps & { places: Places }) {
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

/** A zone's delivery methods, in the order the checkout lists them. */
function ZoneMethods({
  zone,
  index,
  problemAt,
  editZone,
  onLeave,
  focusNext,
}: ZoneProps & Pick<ShippingSettingsProps, 'onLeave' | 'focusNext'>) {
  const id = useId();
  const at = `shipping.zones.${index}.methods`;
  const listProblem = problemAt(at);

  function editMethod(m: number, path: string, change: (method: MethodDraft) => MethodDraft) {
    editZone(index, `.methods.${m}${path}`, (z) => ({
      ...z,
      methods: z.methods.map((method, i) => (i === m ? change(method) : method)),
    }));
  }

  function add() {
    const method = newMethod();
    editZone(index, '.methods', (z) => ({ ...z, methods: [...z.methods, method] }));
    focusNext(() => document.querySelector<HTMLElement>(`[data-shipping-row="${method.key}"] input`));
  }

  return (
    <div className="shipping-methods-list">
      {zone.methods.map((method, m) => {
        const path = `${at}.${m}`;
        const text = (field: 'name' | 'price' | 'freeFrom' | 'estimate', label: string, problemPath: string) => (
          <Field
            label={label}
            name={`${method.key}-${field}`}
            autoComplete="off"
            inputMode={field === 'price' || field === 'freeFrom' ? 'decimal' : undefined}
            value={method[field]}
            error={problemAt(`${path}.${problemPath}`) ?? (field === 'name' ? problemAt(`${path}.id`) : undefined)}
            announceError
            onChange={(event) => {
              const { value } = event.target;
              editMethod(m, `.${problemPath}`, (current) => ({ ...current, [field]: value }));
            }}
            onBlur={() => onLeave(`${path}.${problemPath}`)}
          />
        );
        return (
          <fieldset key={method.key} className="size-row shipping-method" data-shipping-row={method.key}>
            <legend className="sizes-legend">
              Zone {index + 1}, method {m + 1}
            </legend>
            {text('name', 'Method name', 'name')}
            <Field
              label="Pricing"
              name={`${method.key}-kind`}
              autoComplete="off"
              value={method.kind}
              options={[
                ['flat', 'Flat'],
                ['bands', 'By weight'],
              ]}
              error={undefined}
              onChange={(event) => {
                const kind = event.target.value === 'bands' ? 'bands' : 'flat';
                editMethod(m, '.price', (current) => ({ ...current, kind }));
              }}
              onBlur={() => {}}
            />
            {method.kind === 'flat' ? (
              text('price', 'Price', 'price.cents')
            ) : (
              <WeightBands
                method={method}
                path={`${path}.price.bands`}
                legend={`Weight bands of zone ${index + 1}, method ${m + 1}`}
                problemAt={problemAt}
                onLeave={onLeave}
                onEdit={(bandPath, change) =>
                  editMethod(m, `.price.bands${bandPath}`, (current) => ({ ...current, bands: change(current.bands) }))
                }
              />
            )}
            {text('freeFrom', 'Free from (optional)', 'freeFromCents')}
            {text('estimate', 'Delivery estimate', 'estimate')}
            <div className="size-actions">
              <MoveButtons
                index={m}
                count={zone.methods.length}
                what={`zone ${index + 1}, method ${m + 1}`}
                onMove={(by) => editZone(index, '.methods', (z) => ({ ...z, methods: moved(z.methods, m, by) }))}
              />
              <button
                type="button"
                className="button button-quiet"
                onClick={() => {
                  editZone(index, '.methods', (z) => ({ ...z, methods: z.methods.filter((_, i) => i !== m) }));
                  focusNext(() => document.getElementById(`${id}-add`));
                }}
              >
                Remove method
              </button>
            </div>
          </fieldset>
        );
      })}
      {listProblem && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {listProblem}
        </p>
      )}
      <p>
        <button
          id={`${id}-add`}
          type="button"
          className="button button-quiet"
          aria-describedby={listProblem ? `${id}-error` : undefined}
          onClick={add}
        >
          Add a method to zone {index + 1}
        </button>
      </p>
    </div>
  );
}

interface WeightBandsProps {
  method: MethodDraft;
  path: string;
  legend: string;
  problemAt(path: string): string | undefined;
  onLeave(path: string): void;
  onEdit(path: string, change: (bands: BandDraft[]) => BandDraft[]): void;
}

/** A method's price by weight: bands in ascending order, each 'Up to (grams)' with its price. */
function WeightBands({ method, path, legend, problemAt, onLeave, onEdit }: WeightBandsProps) {
  const id = useId();
  const listProblem = problemAt(path);
  return (
    <fieldset className="shipping-bands" aria-describedby={`${id}-hint`}>
      <legend className="sizes-legend">{legend}</legend>
      <p id={`${id}-hint`} className="field-hint">
        From the lightest: an order weighing up to a band's grams (and more than the band before) pays its price.
      </p>
      {method.bands.map((band, b) => (
        <fieldset key={band.key} className="size-row">
          <legend className="sizes-legend">Band {b + 1}</legend>
          {(
            [
              ['upToGrams', 'Up to (grams)', 'numeric', 'upToGrams'],
              ['price', 'Price', 'decimal', 'cents'],
            ] as const
          ).map(([field, label, inputMode, problemPath]) => (
            <Field
              key={field}
              label={label}
              name={`${band.key}-${field}`}
              autoComplete="off"
              inputMode={inputMode}
              value={band[field]}
              error={problemAt(`${path}.${b}.${problemPath}`)}
              announceError
              onChange={(event) => {
                const { value } = event.target;
                onEdit(`.${b}.${problemPath}`, (bands) =>
                  bands.map((row, i) => (i === b ? { ...row, [field]: value } : row)),
                );
              }}
              onBlur={() => onLeave(`${path}.${b}.${problemPath}`)}
            />
          ))}
          {method.bands.length > 1 && (
            <div className="size-actions">
              <button
                type="button"
                className="button button-quiet"
                onClick={() => onEdit('', (bands) => bands.filter((_, i) => i !== b))}
              >
                Remove band {b + 1}
              </button>
            </div>
          )}
        </fieldset>
      ))}
      {listProblem && (
        <p className="field-error" role="alert">
          {listProblem}
        </p>
      )}
      <p>
        <button
          type="button"
          className="button button-quiet"
          onClick={() => onEdit('', (bands) => [...bands, newBand()])}
        >
          Add a band
        </button>
      </p>
    </fieldset>
  );
}
