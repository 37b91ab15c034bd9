import { shopAddressText } from '../../shared/address';
import type { ShopSettings } from '../../shared/settings';

/** Who issues the shop's invoices, as each invoice states it when issued (docs/product.md §20). */
export interface LegalDetails {
  /** The shop's name, as riders know it. */
  name: string;
  /** The name it trades under by law. */
  legalName: string;
  /** As one block (`shopAddressText`). */
  address: string;
  phone: string;
  /** A VAT number or the like; null while the shop has none. */
  taxId: string | null;
}

/** The seller's details an invoice states, from the shop's settings (docs/product.md §17) as the issuing unit reads them. */
export function legalDetailsOf({ shop, format }: ShopSettings): LegalDetails {
  const { name, legalName, address, phone, taxId } = shop;
  const text = shopAddressText(address, format.locale);
  return { name, legalName, address: text, phone, taxId: taxId === '' ? null : taxId };
}
