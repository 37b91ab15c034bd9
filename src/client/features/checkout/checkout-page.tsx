import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link, useLoaderData, useNavigate, useNavigation, useRevalidator, useSearchParams } from 'react-router';
import { type AddressField, addressFields, emptyAddress } from '../../../shared/address';
import { type Delivery, deliveries } from '../../../shared/delivery';
import { notices } from '../../../shared/notices';
import { pages } from '../../../shared/pages';
import { fillPath } from '../../../shared/paths';
import { card, cardMinimumCents, cardMinimumMessage } from '../../../shared/payment/card';
import { nothingToPay } from '../../../shared/payment/payment-methods';
import { discountOf } from '../../../shared/pricing';
import { itemWithSize } from '../../../shared/sizes';
import { Alert } from '../../components/alert';
import { DocumentTitle } from '../../components/document-title';
import { Field } from '../../components/field';
import { OrderSummary } from '../../components/order-summary';
import { ApiError, call, messageOf } from '../../lib/api';
import { useRegions } from '../../lib/places';
import { useSession } from '../../lib/session';
import { useShop } from '../../lib/shop';
import { useForm } from '../../lib/use-form';
import {
  autoComplete,
  collectionFields,
  deliveryOptions,
  idempotencyKey,
  priceAndEstimate,
  rowProblems,
} from './checkout-form';
import { loader } from './checkout-loader';
import { DiscountCode } from './discount-code';

export { loader };

export default function CheckoutPage() {
  const { items, money, shipping, place, delivery, discountProblem, methods, countryOptions } =
    useLoaderData<typeof loader>();
  const shop = useShop();
  // The quote's amounts are in its own currency, written as the shop writes amounts.
  const moneyFormat = { currency: money.currency, locale: shop.format.locale };
  const [, setSearchParams] = useSearchParams();
  const discountCode = discountOf(money)?.code;
  // A new delivery asks the server for a new quote; the order waits for it.
  const quoting = useNavigation().state !== 'idle';
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [key] = useState(idempotencyKey);
  const form = useForm(async () => (await import('../../../shared/address-rules')).checkoutAddressSchema, {
    ...emptyAddress,
    delivery,
  });
  const [method, setMethod] = useState(methods[0]?.id ?? '');
  const sending = useRef(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // The order was refused for an address not yet confirmed: once the link is opened (in another tab, on the phone),
  // the session says so and the page lets the rider place it, with the form as it was.
  const [unconfirmed, setUnconfirmed] = useState(false);
  const { user } = useSession();
  const confirmedSince = unconfirmed && user?.emailConfirmed === true;
  // The rows the server refused (sold out, without a size, no longer available), with what to say about each.
  const [problems, setProblems] = useState<ReadonlyMap<string, string>>(new Map());
  const summaryId = useId();
  const { country, region, postalCode } = form.values;
  // The country's subdivisions: 'State or region' is a list of them (storing the ISO 3166-2 code), or text for a
  // country with none.
  const regions = useRegions(country);
  // While the list loads it is a list still (to be chosen from once it is in), not a text field for a moment.
  const regionOptions =
    regions !== undefined && regions.length === 0
      ? undefined
      : [['', 'Choose…'] as const, ...(regions ?? []).map(({ code, name }) => [code, name] as const)];
  // The form checks the fields the delivery asks for; a region of another country no longer fits.
  const { set } = form;
  useEffect(() => set('delivery', delivery), [delivery, set]);
  useEffect(() => {
    if (regions !== undefined && regions.length > 0 && region !== '' && !regions.some((r) => r.code === region)) {
      set('region', '');
    }
  }, [regions, region, set]);
  const offeredMethods = methods.filter((m) => m.delivery === undefined || m.delivery === delivery);
  // Stripe charges no less than its minimum: below it, Card gives way to the first other method (docs/product.md §14).
  const cardTooSmall = money.totalCents > 0 && money.totalCents < cardMinimumCents;
  const payWith =
    cardTooSmall && method === card.id ? (offeredMethods.find((m) => m.id !== card.id)?.id ?? method) : method;
  const chosenOption = shipping.options.find((option) => option.id === shipping.chosen);

  /**
   * A new quote: the page's address (what the loader reads back) with these choices changed, null for one left out,
   * and the others (the discount code among them) kept.
   */
  const requote = useCallback(
    (changes: Partial<Record<'delivery' | 'country' | 'region' | 'postalCode' | 'method' | 'code', string | null>>) => {
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [name, value] of Object.entries(changes)) {
            if (value === null) next.delete(name);
            else if (value !== undefined) next.set(name, value);
          }
          return next;
        },
        { replace: true },
      );
    },
    [setSearchParams],
  );

  /**
   * The place the order will name for a delivery, which the quote is asked for, so that it prices exactly what 'Place
   * order' sends: for shipping, the address's country, region (once it is one of the country's) and postal code; for
   * collection, the country alone (the order is taxed where the yard is, docs/product.md §19).
   */
  const sentPlace = useCallback(
    (chosen: Delivery) => {
      if (chosen === 'collection') return { country, region: '', postalCode: '' };
      const known = regions !== undefined && (regions.length === 0 || regions.some((r) => r.code === region));
      return { country, region: known ? region : '', postalCode };
    },
    [country, region, postalCode, regions],
  );

  // The place the order would name changed: the quote lists the methods and the tax for the new one.
  useEffect(() => {
    const now = sentPlace(delivery);
    if (now.country === place.country && now.region === place.region && now.postalCode === place.postalCode) return;
    requote({ delivery, ...now, method: shipping.chosen });
  }, [sentPlace, place, delivery, shipping.chosen, requote]);

  function chooseShipping(id: string) {
    requote({ delivery, ...sentPlace(delivery), method: id });
  }

  function chooseDelivery(chosen: Delivery) {
    requote({ delivery: chosen, ...sentPlace(chosen), method: null });
    // A payment method that goes with one delivery only (Pay on collection) gives way to the first of the others.
    const needs = methods.find((m) => m.id === method)?.delivery;
    if (needs !== undefined && needs !== chosen) setMethod(methods.find((m) => m.delivery === undefined)?.id ?? '');
  }

  function chooseMethod(id: string) {
    setMethod(id);
    const needs = methods.find((m) => m.id === id)?.delivery;
    if (needs !== undefined && needs !== delivery) {
      requote({ delivery: needs, ...sentPlace(needs), method: null });
    }
  }

  async function removeRow(id: string) {
    try {
      await call('removeFromCart', { params: { id } });
    } catch (error) {
      // Already gone (removed in another tab) is what was asked for.
      if (!(error instanceof ApiError && error.code === 'cart/not-found')) {
        setFailure(notices.deleteFailed);
        return;
      }
    }
    setProblems((current) => {
      const left = new Map(current);
      left.delete(id);
      return left;
    });
    await revalidator.revalidate();
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // A double click sends one request; a retry after a failure sends the same key.
    if (!form.isValid || sending.current) return;
    sending.current = true;
    setBusy(true);
    setFailure(null);
    setUnconfirmed(false);
    setProblems(new Map());
    const { delivery: _, ...typed } = form.values;
    // Collecting at the yard sends the name and the phone alone (the country stays, for the books): the place quoted.
    const address =
      delivery === 'collection'
        ? { ...emptyAddress, ...sentPlace(delivery), fullName: typed.fullName, phone: typed.phone }
        : typed;
    try {
      const { order, payUrl, payError } = await call('placeOrder', {
        body: {
          address,
          paymentMethod: payWith,
          delivery,
          idempotencyKey: key,
          cartItemIds: items.map((i) => i.id),
          // The method chosen and its price as this page shows it: another price now is refused (shipping-changed).
          ...(chosenOption ? { shippingMethod: chosenOption.id, shippingCents: chosenOption.cents } : {}),
          // The total of the server's quote this page shows: a price changed meanwhile is refused (order/cart-changed).
          totalCents: money.totalCents,
          discountCode,
        },
      });
      // A card order is paid on Stripe's page, which brings the rider back to the order's page.
      if (payUrl) window.location.assign(payUrl);
      else navigate(fillPath(pages.order.path, { number: order.number }), { state: { placed: true, payError } });
    } catch (error) {
      setFailure(messageOf(error));
      setUnconfirmed(error instanceof ApiError && error.code === 'auth/email-not-confirmed');
      if (error instanceof ApiError && error.rows.length > 0) {
        const problem = rowProblems[error.code] ?? 'No size chosen.';
        setProblems(new Map(error.rows.map((id) => [id, problem])));
      }
      // The cart is not what this page showed: show it as it is now.
      const stale = ['order/cart-changed', 'order/cart-empty', 'order/shipping-changed'];
      if (error instanceof ApiError && stale.includes(error.code)) {
        await revalidator.revalidate();
      }
      // The code stopped working since 'Apply': the quote without it, the cart as it was, and the page says why.
      if (error instanceof ApiError && error.code === 'order/discount-unavailable') requote({ code: null });
      sending.current = false;
      setBusy(false);
    }
  }

  return (
    <section className="page checkout-page" aria-labelledby="checkout-title">
      <DocumentTitle page={pages.checkout.title} />
      <h1 id="checkout-title">Checkout</h1>
      {confirmedSince ? (
        <Alert kind="status">Your e-mail address is confirmed: you can place your order now.</Alert>
      ) : (
        failure && <Alert kind="alert">{failure}</Alert>
      )}
      {items.length === 0 ? (
        <>
          <p>Your cart is empty, so there is nothing to check out.</p>
          <p>
            <Link className="button" to={pages.home.path}>
              Continue Shopping
            </Link>
          </p>
        </>
      ) : (
        <form className="checkout" onSubmit={submit} noValidate aria-labelledby="checkout-title">
          <div className="card">
            <h2 id={summaryId}>Your order</h2>
            <OrderSummary
              labelledBy={summaryId}
              lines={items}
              money={money}
              noteOn={(_line, index) => {
                const item = items[index];
                // A row no longer available says so from the start; the server refuses it until it is removed.
                const problem =
                  item && (problems.get(item.id) ?? (item.available ? undefined : rowProblems['order/unavailable']));
                return (
                  item &&
                  problem && (
                    <span className="line-problem">
                      {problem}{' '}
                      <button
                        type="button"
                        className="button button-quiet"
                        aria-label={`Remove ${itemWithSize(item.name, item.size)}`}
                        onClick={() => removeRow(item.id)}
                      >
                        Remove
                      </button>
                    </span>
                  )
                );
              }}
            />
          </div>
          <DiscountCode
            delivery={delivery}
            money={money}
            problem={discountProblem}
            onApplied={(code) => requote({ code })}
          />
          <div className="card form">
            <Field
              label="Delivery"
              name="delivery"
              autoComplete="off"
              options={deliveryOptions}
              value={delivery}
              error={undefined}
              onChange={(event) => chooseDelivery(deliveries.find((d) => d === event.target.value) ?? 'shipping')}
              onBlur={() => {}}
            />
          </div>
          <fieldset className="card form">
            <legend>{delivery === 'collection' ? 'Who collects' : 'Delivery address'}</legend>
            {(Object.keys(addressFields) as AddressField[])
              .filter((name) => delivery === 'shipping' || collectionFields.includes(name))
              .map((name) => (
                <Field
                  key={name}
                  label={name === 'phone' && delivery === 'collection' ? 'Phone' : addressFields[name].label}
                  type={name === 'phone' ? 'tel' : 'text'}
                  autoComplete={autoComplete[name]}
                  options={name === 'country' ? countryOptions : name === 'region' ? regionOptions : undefined}
                  {...form.field(name)}
                />
              ))}
          </fieldset>
          <fieldset className="card form shipping-methods">
            <legend>Delivery method</legend>
            {shipping.refusal !== undefined && <Alert kind="status">{shipping.refusal}</Alert>}
            {shipping.options.length === 1 && chosenOption !== undefined ? (
              // One method: nothing to choose, it is said.
              <p>
                {chosenOption.name}: {priceAndEstimate(chosenOption, moneyFormat)}
              </p>
            ) : (
              shipping.options.map((option) => (
                <div className="choice" key={option.id}>
                  <input
                    type="radio"
                    id={`shipping-${option.id}`}
                    name="shippingMethod"
                    value={option.id}
                    checked={shipping.chosen === option.id}
                    onChange={() => chooseShipping(option.id)}
                    aria-describedby={`shipping-${option.id}-price`}
                  />
                  <label htmlFor={`shipping-${option.id}`}>{option.name}</label>
                  <p id={`shipping-${option.id}-price`} className="field-hint">
                    {priceAndEstimate(option, moneyFormat)}
                  </p>
                </div>
              ))
            )}
          </fieldset>
          <fieldset className="card form payment-methods">
            <legend>Payment</legend>
            {money.totalCents === 0 ? (
              // A code took it all: the order is paid as it is placed (docs/product.md §8).
              <p>{nothingToPay}: your order is paid as it is placed.</p>
            ) : (
              offeredMethods.map((offered) => {
                const belowCard = cardTooSmall && offered.id === card.id;
                return (
                  <div className="choice" key={offered.id}>
                    <input
                      type="radio"
                      id={`payment-${offered.id}`}
                      name="paymentMethod"
                      value={offered.id}
                      checked={payWith === offered.id}
                      disabled={belowCard}
                      onChange={() => chooseMethod(offered.id)}
                      aria-describedby={`payment-${offered.id}-summary`}
                    />
                    <label htmlFor={`payment-${offered.id}`}>{offered.label}</label>
                    <p id={`payment-${offered.id}-summary`} className="field-hint">
                      {belowCard ? cardMinimumMessage(moneyFormat) : offered.summary(shop)}
                    </p>
                  </div>
                );
              })
            )}
          </fieldset>
          <p>
            <button
              type="submit"
              className="button"
              disabled={!form.isValid || busy || quoting || problems.size > 0 || chosenOption === undefined}
            >
              Place order
            </button>
          </p>
        </form>
      )}
    </section>
  );
}
