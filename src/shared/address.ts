/**
 * Where an order goes (docs/product.md §8): the countries, the fields of a delivery address and their rules, and
 * the address as lines. Both sides use it: the checkout's form and the server's check.
 */
import './zod-config';
import { z } from 'zod';
import { noControlCharacters } from './text';

/** Where the shop ships: ISO 3166-1 codes of the inhabited countries and territories. */
export const countryCodes =
  'AD AE AF AG AI AL AM AO AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GT GU GW GY HK HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'.split(
    ' ',
  ) as [string, ...string[]];
export const defaultCountry = 'US';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const countryNames = new Map<string, string>();
/** A country's English name, e.g. "United States" for US. */
export function countryName(code: string): string {
  let name = countryNames.get(code);
  if (name === undefined) {
    name = regionNames.of(code) ?? code;
    countryNames.set(code, name);
  }
  return name;
}

let countryList: ReadonlyArray<readonly [code: string, name: string]> | undefined;
/** Every country an address may be in, by name, as a list to choose from gives them: [code, name] pairs. */
export function countryChoices(): ReadonlyArray<readonly [code: string, name: string]> {
  countryList ??= countryCodes
    .map((code) => [code, countryName(code)] as const)
    .sort((a, b) => a[1].localeCompare(b[1]));
  return countryList;
}

/** Each field of the delivery address: its label, whether it is required, and its longest value. */
export const addressFields = {
  fullName: { label: 'Full name', required: true, max: 100 },
  line1: { label: 'Address line 1', required: true, max: 100 },
  line2: { label: 'Address line 2 (optional)', required: false, max: 100 },
  city: { label: 'City', required: true, max: 60 },
  region: { label: 'State or region', required: true, max: 60 },
  postalCode: { label: 'Postal code', required: true, max: 16 },
  country: { label: 'Country', required: true, max: 2 },
  phone: { label: 'Phone (optional)', required: false, max: 30 },
} as const;
export type AddressField = keyof typeof addressFields;

/** The name of a field in messages: its label without "(optional)". */
function nameOf(field: AddressField): string {
  return addressFields[field].label.replace(' (optional)', '');
}

function text(field: AddressField, required: boolean = addressFields[field].required) {
  const { max } = addressFields[field];
  const name = nameOf(field);
  const schema = z
    .string({ error: `${name} must be text.` })
    .trim()
    .max(max, `${name} must be at most ${max} characters.`)
    .regex(noControlCharacters, `${name} must be on one line, without control characters.`);
  return required ? schema.min(1, `${name} is required.`) : schema;
}

/** An optional field may be left out of a request; it is then empty. */
function optionalText(field: AddressField) {
  return text(field).default('');
}

function postalCode(required: boolean) {
  return text('postalCode', required).regex(
    /^[\p{L}\p{N}][\p{L}\p{N} -]*$|^$/u,
    'Postal code may have only letters, digits, spaces and hyphens.',
  );
}

export const addressSchema = z.strictObject({
  fullName: text('fullName'),
  line1: text('line1'),
  line2: optionalText('line2'),
  city: text('city'),
  region: text('region'),
  postalCode: postalCode(true),
  country: z.enum(countryCodes, { error: 'Choose a country from the list.' }),
  phone: text('phone')
    .regex(/^[0-9+()./ -]*$/, 'Phone may have only digits, spaces and + ( ) - . /')
    .default(''),
});
export type Address = z.infer<typeof addressSchema>;

/** The fields only shipping needs: an order collected at the yard may leave them out (DECISIONS.md §18). */
export const shippingOnlyFields = ['line1', 'city', 'region', 'postalCode'] as const satisfies readonly AddressField[];

/**
 * An order's address as the place body takes it: the fields only shipping needs may be empty, the order's delivery
 * says which it needs (orders.ts's `placeOrderSchema`); the country stays, for the tax and the books.
 */
export const orderAddressSchema = addressSchema.extend({
  line1: text('line1', false),
  city: text('city', false),
  region: text('region', false),
  postalCode: postalCode(false),
});

/** The message for a field left empty that the delivery needs. */
export function requiredMessage(field: AddressField): string {
  return `${nameOf(field)} is required.`;
}

export const emptyAddress: Address = {
  fullName: '',
  line1: '',
  line2: '',
  city: '',
  region: '',
  postalCode: '',
  country: defaultCountry,
  phone: '',
};

/** The address as lines, for a page, an e-mail or a spreadsheet. */
export function addressLines(address: Address): string[] {
  return [
    address.fullName,
    address.line1,
    address.line2,
    // An order collected at the yard may have no town.
    address.city ? `${address.city}, ${address.region} ${address.postalCode}` : '',
    countryName(address.country),
    address.phone ? `Phone: ${address.phone}` : '',
  ].filter(Boolean);
}
