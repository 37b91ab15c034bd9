/**
 * The rules of a delivery address (docs/product.md §8), for both sides: the checkout's form loads them with its first
 * focus or key, the server checks every address with them. Its fields and their limits are address.ts's.
 */
import './zod-config';
import { z } from 'zod';
import { type AddressField, addressFields, countryCodePattern, postalCodePattern } from './address-fields';
import { noControlCharacters } from './text';

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
    postalCodePattern,
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

/** What a rider collecting at the yard without a phone is told. */
export const collectionPhoneMessage =
  'Phone is required to collect at the yard: the shop calls when the order is ready.';

/**
 * The checkout's address form, by the delivery chosen (docs/product.md §18): the whole address to ship; a name and a phone
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

/** The fields only shipping needs: an order collected at the yard may leave them out (docs/product.md §18). */
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
