/** Everything a shop owner may want to edit about the shop's identity, in one place. */
export const brand = {
  title: 'Piaffe',
  /** The name the shop trades under by law: its invoices and credit notes are issued in it. */
  legalName: 'Piaffe Saddlery LLC',
  tagline: 'A Dressage Shop for Horse and Rider',
  banner: ['Compete', 'Train', 'Work'],
  address: '12 Arena Lane, Wellington, FL 33414',
  phone: '(561) 555-0142',
  pictureCredits: 'Product pictures: original vector drawings made for Piaffe.',
  /** Prices are stored in integer cents of this currency. */
  currency: 'USD',
  locale: 'en-US',
  /** The shop's own time: the days of an export for the books are its days. */
  timeZone: 'America/New_York',
} as const;
