import { brand } from '../../shared/brand';

/** Who issues the shop's invoices, as each invoice states it when issued (docs/product.md §20). */
export interface LegalDetails {
  /** The shop's name, as riders know it. */
  name: string;
  /** The name it trades under by law. */
  legalName: string;
  address: string;
  phone: string;
  /** A VAT number or the like; null while the shop has none. */
  taxId: string | null;
}

/**
 * The shop's legal details now: the one place invoices read them from. Today they are brand.ts's (which has no tax
 * id); once the shop's settings are the owner's (DECISIONS.md §17), they are read from there, here.
 */
export function shopLegalDetails(): LegalDetails {
  return { name: brand.title, legalName: brand.legalName, address: brand.address, phone: brand.phone, taxId: null };
}
