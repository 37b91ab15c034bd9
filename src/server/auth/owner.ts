/**
 * The owner making a change, as a product's or the settings' history keeps them; `uid` null for the shop's own command
 * line. Here, with the roles, because the catalogue and the settings both record it.
 */
export interface Owner {
  uid: string | null;
  email: string;
}
