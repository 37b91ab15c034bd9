/** What text the shop lets in, for every form and route. */

/**
 * Line breaks, other control characters and the invisible marks that reorder text: never part of an address, a
 * note or a product's name, and never let into an e-mail. (Joiners stay allowed: names in many scripts need them.)
 */
export const noControlCharacters = /^[^\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]*$/u;

/** The same, but for line breaks (`\n`, and the `\r` a form may send with it): a product's details. */
export const textWithLineBreaks = /^(?:[^\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]|[\n\r])*$/u;
