import { useId } from 'react';
import { percentOfRate, rateOfPercent, type TaxSettings as Tax } from '../../../shared/settings';
import { Field } from '../../components/field';
import { useRegionLists } from '../../lib/places';

/** A rate as the owner's form holds it: each field as typed, and a key that stays with the row. */
export interface TaxRateRow {
  key: string;
  country: string;
  region: string;
  postalPrefix: string;
  rate: string;
  name: string;
}

/** The tax section as the owner's form holds it (docs/product.md §19). */
export interface TaxValues {
  pricesIncludeTax: boolean;
  taxShipping: boolean;
  rates: TaxRateRow[];
}

let rowCount = 0;
function rateKey(): string {
  rowCount += 1;
  return `tax-rate-${rowCount}`;
}

/** The form's values for the settings' tax section. */
export function taxValuesOf(tax: Tax): TaxValues {
  return {
    pricesIncludeTax: tax.pricesIncludeTax,
    taxShipping: tax.taxShipping,
    rates: tax.rates.map((rate) => ({
      key: rateKey(),
      country: rate.country,
      region: rate.region ?? '',
      postalPrefix: rate.postalPrefix ?? '',
      rate: percentOfRate(rate.rate),
      name: rate.name,
    })),
  };
}

const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

/** The tax section the values make, for the settings' schema to check (an empty region or prefix: none). */
export function taxOf({ pricesIncludeTax, taxShipping, rates }: TaxValues): unknown {
  return {
    pricesIncludeTax,
    taxShipping,
    rates: rates.map((row) => ({
      country: row.country,
      region: orNull(row.region),
      postalPrefix: orNull(row.postalPrefix),
      rate: rateOfPercent(row.rate),
      name: row.name,
    })),
  };
}

interface TaxSettingsProps {
  values: TaxValues;
  /** The countries to choose from, by name: [code, name] (GET /api/places). */
  countryOptions: ReadonlyArray<readonly [code: string, name: string]>;
  /** The problem to show under a field, by its path in the settings ('tax.rates.0.rate'), as the server names it. */
  problemAt(path: string): string | undefined;
  /** A change: the path of what changed, and the new section. */
  onEdit(path: string, tax: TaxValues): void;
}

/** Each field of a rate: its label, and its hint. */
const rateFields = {
  country: { label: 'Country', hint: undefined },
  region: { label: 'State or region', hint: 'Optional: a rate for one of its states or regions only.' },
  postalPrefix: {
    label: 'Postal code prefix',
    hint: 'Optional: the start of the postal codes it covers, such as 331.',
  },
  rate: { label: 'Rate (%)', hint: 'Up to three decimals, such as 7 or 8.875.' },
  name: { label: 'Name', hint: "As the order shows it, such as 'FL sales tax' or 'VAT'." },
} as const;
type RateField = keyof typeof rateFields;

/**
 * The owner's 'Tax' (docs/product.md §19): whether the prices include tax, whether shipping is taxed, and the rates, a
 * group per rate added, changed and removed with buttons.
 */
export function TaxSettings({ values, countryOptions, problemAt, onEdit }: TaxSettingsProps) {
  const id = useId();

  // A rate's region is one of its country's subdivisions, from their list, as the shipping zones' are; a new country
  // empties it.
  const regions = useRegionLists(values.rates.map((row) => row.country));
  function regionOptions(row: TaxRateRow): ReadonlyArray<readonly [string, string]> {
    const list = regions.get(row.country) ?? [];
    // Until its country's list is in, the region saved stays chosen.
    const saved =
      row.region !== '' && !list.some((region) => region.code === row.region)
        ? [[row.region, row.region] as const]
        : [];
    return [['', 'The whole country'], ...saved, ...list.map(({ code, name }) => [code, name] as const)];
  }

  function edit(index: number, field: RateField, value: string) {
    const emptied = field === 'country' ? { region: '' } : {};
    onEdit(`tax.rates.${index}.${field}`, {
      ...values,
      rates: values.rates.map((row, i) => (i === index ? { ...row, [field]: value, ...emptied } : row)),
    });
  }

  function add() {
    const rate = { key: rateKey(), country: 'US', region: '', postalPrefix: '', rate: '', name: '' };
    onEdit('tax.rates', { ...values, rates: [...values.rates, rate] });
  }

  function remove(index: number) {
    onEdit('tax.rates', { ...values, rates: values.rates.filter((_, i) => i !== index) });
  }

  const listProblem = problemAt('tax.rates');
  return (
    <fieldset className="tax-settings" aria-describedby={`${id}-hint`}>
      <legend>Tax</legend>
      <p id={`${id}-hint`} className="field-hint">
        Rates of different names that match an address all apply; of one name, the most specific (a postal code prefix,
        then a region, then the country).
      </p>
      {(
        [
          ['pricesIncludeTax', 'Prices include tax'],
          ['taxShipping', 'Charge tax on shipping'],
        ] as const
      ).map(([field, label]) => (
        <div className="choice" key={field}>
          <input
            type="checkbox"
            id={`${id}-${field}`}
            checked={values[field]}
            onChange={(event) => onEdit(`tax.${field}`, { ...values, [field]: event.target.checked })}
          />
          <label htmlFor={`${id}-${field}`}>{label}</label>
        </div>
      ))}
      {values.rates.length === 0 && <p>No tax rates: the shop charges no tax of its own.</p>}
      {values.rates.map((row, index) => (
        <fieldset key={row.key} className="size-row">
          <legend className="sizes-legend">Rate {index + 1}</legend>
          {(Object.keys(rateFields) as RateField[]).map((field) => (
            <Field
              key={field}
              label={rateFields[field].label}
              name={`${row.key}-${field}`}
              autoComplete="off"
              hint={rateFields[field].hint}
              inputMode={field === 'rate' ? 'decimal' : undefined}
              options={field === 'country' ? countryOptions : field === 'region' ? regionOptions(row) : undefined}
              value={row[field]}
              error={problemAt(`tax.rates.${index}.${field}`)}
              announceError
              onChange={(event) => edit(index, field, event.target.value)}
              onBlur={() => {}}
            />
          ))}
          <div className="size-actions">
            <button type="button" className="button button-quiet" onClick={() => remove(index)}>
              Remove rate {index + 1}
            </button>
          </div>
        </fieldset>
      ))}
      {listProblem && (
        <p className="field-error" role="alert">
          {listProblem}
        </p>
      )}
      <p>
        <button type="button" className="button button-quiet" onClick={add}>
          Add a tax rate
        </button>
      </p>
    </fieldset>
  );
}
