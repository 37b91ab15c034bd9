import type { SizeGuide } from '../../shared/finding';

/**
 * The five categories of docs/product.md §22 and their size guides, as migration 0017 seeded them, with the first
 * products in each. Part of that migration: never edit it (the owner changes categories in the back office).
 */
export interface FirstCategory {
  slug: string;
  name: string;
  itemids: readonly string[];
  sizeGuide: SizeGuide;
}

export const firstCategories: readonly FirstCategory[] = [
  {
    slug: 'bridles',
    name: 'Bridles',
    itemids: ['1', '8'],
    sizeGuide: {
      columns: ['Size', 'Browband', 'Noseband'],
      rows: [
        ['Pony', '38 cm', '56 cm'],
        ['Cob', '40 cm', '60 cm'],
        ['Full', '42 cm', '64 cm'],
        ['Warmblood', '44 cm', '68 cm'],
      ],
    },
  },
  {
    slug: 'saddles',
    name: 'Saddles',
    itemids: ['2'],
    sizeGuide: {
      columns: ['Seat', "Rider's thigh (hip to knee)"],
      rows: [
        ['16.5"', 'up to 16"'],
        ['17"', '16" to 18"'],
        ['17.5"', '18" to 20"'],
        ['18"', 'over 20"'],
      ],
    },
  },
  {
    slug: 'boots',
    name: 'Boots',
    itemids: ['3', '5'],
    sizeGuide: {
      columns: ["Size (US women's)", 'Height', 'Calf'],
      rows: [
        ['6', '40 cm', '33 cm'],
        ['7', '41 cm', '34 cm'],
        ['8', '42 cm', '35 cm'],
        ['9', '43 cm', '36 cm'],
        ['10', '44 cm', '37 cm'],
        ['11', '45 cm', '38 cm'],
      ],
    },
  },
  {
    slug: 'jackets',
    name: 'Jackets',
    itemids: ['4', '7'],
    sizeGuide: {
      columns: ['Size', 'Chest'],
      rows: [
        ['XS', '81 to 86 cm'],
        ['S', '86 to 91 cm'],
        ['M', '91 to 97 cm'],
        ['L', '97 to 102 cm'],
        ['XL', '102 to 107 cm'],
      ],
    },
  },
  {
    slug: 'saddle-pads',
    name: 'Saddle pads',
    itemids: ['6'],
    sizeGuide: {
      columns: ['Size', 'Length along the spine'],
      rows: [
        ['Pony', '50 cm'],
        ['Cob', '54 cm'],
        ['Full', '58 cm'],
      ],
    },
  },
];
