import { useId } from 'react';
import { collectionName } from '../../../shared/shipping';
import { Field } from '../../components/field';
import { MoveButtons, moved } from './move-buttons';
import { newZone, type ShippingDraft, type ZoneDraft } from './shipping-settings-values';
import { ZoneMethods } from './shipping-zone-methods';
import { usePlaces, ZonePlaces } from './shipping-zone-places';

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
