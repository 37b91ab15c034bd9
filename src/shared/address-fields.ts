/**
 * The fields of an address and the patterns of its parts, which the address as lines (address.ts) and its rules
 * (address-rules.ts) both read: apart from either, so that neither imports the other both ways. Without zod.
 */

/**
 * A country as an address holds it: an ISO 3166-1 alpha-2 code. Which codes exist is the server's to say (GET
 * /api/places, from the `iso-3166` package), so that the list never weighs on a page's script.
 */
export const countryCodePattern = /^[A-Z]{2}$/;

/** A postal code as an address gives it: letters, digits, spaces and hyphens; may be empty. */
export const postalCodePattern = /^[\p{L}\p{N}][\p{L}\p{N} -]*$|^$/u;

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
