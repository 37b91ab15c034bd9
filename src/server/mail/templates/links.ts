import { pages } from '../../../shared/pages';
import { fillPath } from '../../../shared/paths';
import type { Site } from '../message';

/** The links e-mails carry, all from PUBLIC_URL. */
export const links = {
  order: (site: Site, number: string) => `${site.publicUrl}${fillPath(pages.order.path, { number })}`,
  product: (site: Site, slug: string) => `${site.publicUrl}${fillPath(pages.product.path, { slug })}`,
  logIn: (site: Site) => `${site.publicUrl}${pages.signupLogin.path}`,
  /** The token rides in the fragment, which browsers never send to a server or a proxy's log. */
  resetPassword: (site: Site, token?: string) =>
    `${site.publicUrl}${pages.resetPassword.path}${token ? `#token=${token}` : ''}`,
  /** Likewise in the fragment. */
  confirmEmail: (site: Site, token: string) => `${site.publicUrl}${pages.confirmEmail.path}#token=${token}`,
};
