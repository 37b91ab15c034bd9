/**
 * Where an order goes (docs/product.md §8): the countries, the fields of a delivery address and their rules, and
 * the address as lines. Both sides use it: the checkout's form and the server's check.
 */
import './zod-config';
import { z } from 'zod';
import { noControlCharacters } from './text';

/**
 * A country as an address holds it: an ISO 3166-1 alpha-2 code. Which codes exist is the server's to say (GET
 * /api/places, from the `iso-3166` package), so that the list never weighs on a page's script.
 */
export const countryCodePattern = /^[A-Z]{2}$/;

/** A region given as an ISO 3166-2 subdivision's code ('US-FL'), as the address form's list stores it. */
export const regionCodePattern = /^[A-Z]{2}-[A-Z0-9]{1,3}$/;

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

function phone(required: boolean, requiredMessage?: string) {
  const schema = text('phone').regex(/^[0-9+()./ -]*$/, 'Phone may have only digits, spaces and + ( ) - . /');
  return required ? schema.min(1, requiredMessage) : schema;
}

export const addressSchema = z.strictObject({
  fullName: text('fullName'),
  line1: text('line1'),
  line2: optionalText('line2'),
  city: text('city'),
  region: text('region'),
  postalCode: postalCode(true),
  country: z
    .string({ error: 'Choose a country from the list.' })
    .regex(countryCodePattern, 'Choose a country from the list.'),
  phone: phone(false).default(''),
});
export type Address = z.infer<typeof addressSchema>;

/** What a rider collecting at the yard without a phone is told. */
export const collectionPhoneMessage =
  'Phone is required to collect at the yard: the shop calls when the order is ready.';

/**
 * The checkout's address form, by the delivery chosen (DECISIONS.md §18): the whole address to ship; a name and a phone
 * to collect at the yard, the other fields left out.
 */
export const checkoutAddressSchema = z.discriminatedUnion('delivery', [
  addressSchema.extend({ delivery: z.literal('shipping') }),
  z.object({
    delivery: z.literal('collection'),
    fullName: text('fullName'),
    phone: phone(true, collectionPhoneMessage),
  }),
]);

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

/**
 * The address as lines, for a page, an e-mail or a spreadsheet. The region is printed by its name ('Florida' for
 * US-FL), which `regionName` gives for a subdivision's code (the server's list, or GET /api/places/:country's in the
 * browser); a region typed as text (an order from before the list, a country without subdivisions) as it is.
 */
export function addressLines(address: Address, regionName: (code: string) => string | undefined): string[] {
  const region = regionName(address.region) ?? address.region;
  return [
    address.fullName,
    address.line1,
    address.line2,
    // An order collected at the yard may have no town.
    address.city ? `${address.city}, ${region} ${address.postalCode}` : '',
    countryName(address.country),
    address.phone ? `Phone: ${address.phone}` : '',
  ].filter(Boolean);
}
