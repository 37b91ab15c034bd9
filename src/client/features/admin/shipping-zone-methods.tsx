import { useId } from 'react';
import { Field } from '../../components/field';
import { MoveButtons, moved } from './move-buttons';
import { type BandDraft, type MethodDraft, newBand, newMethod, type ZoneProps } from './shipping-settings-values';

interface ZoneMethodsProps extends ZoneProps {
  /** A field left: its problem shows from now on. */
  onLeave(path: string): void;
  focusNext(find: () => HTMLElement | null | undefined): void;
}

/** A zone's delivery methods, in the order the checkout lists them. */
export function ZoneMethods({ zone, index, problemAt, editZone, onLeave, focusNext }: ZoneMethodsProps) {
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
