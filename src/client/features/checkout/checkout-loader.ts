import type { LoaderFunctionArgs } from 'react-router';
import { checkoutChoices } from '../../../shared/checkout';
import { methodsOf } from '../../../shared/payment/payment-methods';
import { ApiError, call } from '../../lib/api';
import { takeFromPage } from '../../lib/page-data';
import { countries } from '../../lib/places';

/**
 * The server's quote (the cart as it holds it, from which the order is built, and what it costs, with the discount
 * code applied) and the payment methods it offers. The page computes no amount of its own. A code that no longer
 * works (used up since 'Apply') leaves the quote without it, and the page says why. The first quote and the methods
 * come with the page's HTML (ADR 0045), so the page paints without the API's contract and zod; a later one is asked.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  // The address's country, region and postal code, and the delivery method chosen: the quote lists the methods for
  // them and the tax they carry.
  const { delivery, place, method, discountCode } = checkoutChoices(new URL(request.url).searchParams);
  const fromPage = takeFromPage('checkout');
  const quoted = (code?: string) =>
    call('quote', { query: { delivery, ...place, ...(method === undefined ? {} : { method }), discountCode: code } });
  const [[{ items, money, shipping }, discountProblem], methods, countryList] = await Promise.all([
    fromPage
      ? ([fromPage.quote, null] as const)
      : quoted(discountCode).then(
          (quote) => [quote, null] as const,
          async (error: unknown) => {
            if (!(error instanceof ApiError && error.code.startsWith('discount/'))) throw error;
            return [await quoted(), error.message] as const;
          },
        ),
    fromPage?.methods ?? call('paymentMethods').then((reply) => reply.methods),
    countries(),
  ]);
  const countryOptions = countryList.map(({ code, name }) => [code, name] as const);
  return { items, money, shipping, place, delivery, discountProblem, methods: methodsOf(methods), countryOptions };
}
