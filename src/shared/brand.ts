/**
 * What the code fixes about the shop's look. The shop's name, address, phone, currency, locale, time zone and the rest
 * an owner changes are its settings, in the database (src/shared/settings.ts, docs/decisions/0034-the-shops-settings.md).
 */
export const brand = {
  /** The software's own name, where the shop's settings are not read: a default MAIL_FROM, the passkeys' site. */
  software: 'Piaffe',
  tagline: 'A Dressage Shop for Horse and Rider',
  banner: ['Compete', 'Train', 'Work'],
  pictureCredits: 'Product pictures: original vector drawings made for Piaffe.',
} as const;
