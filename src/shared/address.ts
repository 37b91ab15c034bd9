/**
 * Where an order goes (docs/product.md §8): the countries, the fields of a delivery address, and the address as lines.
 * Both sides use it, without zod: a page that shows or asks for an address loads the rules (address-rules.ts) only
 * when it checks one (ADR 0028).
 */
import type { z } from 'zod';
import type { addressSchema } from './address-rules';

// The fields and patterns both this file and the rules (address-rules.ts) read, shown here too for their importers.
export { type AddressField, addressFields, countryCodePattern, postalCodePattern } from './address-fields';

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

/** An address as the rules (address-rules.ts) read it. */
export type Address = z.infer<typeof addressSchema>;

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

/** The shop's address in its parts (settings.ts's `shopAddressSchema`). */
export interface ShopAddress {
  line1: string;
  line2: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
}

/**
 * The shop's address as one block, as the footer, the e-mails, collection's details and the invoices print it:
 * '12 Arena Lane, Wellington, FL 33414'. The region is printed as its code within the country ('FL' for US-FL), the
 * country by name when it is not the one of the shop's `locale` (its settings', en-US: the United States).
 */
export function shopAddressText(
  { line1, line2, city, region, postalCode, country }: ShopAddress,
  locale: string,
): string {
  const homeCountry = new Intl.Locale(locale).region;
  const regionShort = region.startsWith(`${country}-`) ? region.slice(country.length + 1) : region;
  const place = [regionShort, postalCode].filter(Boolean).join(' ');
  return [line1, line2, city, place, country === homeCountry || country === '' ? '' : countryName(country)]
    .filter((part) => part !== '')
    .join(', ');
}

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
