import { type FormEvent, useId, useRef, useState } from 'react';
import { useLoaderData, useRevalidator } from 'react-router';
import type { MoneyFormat } from '../../../shared/money';
import { pages } from '../../../shared/pages';
import { methodsOf } from '../../../shared/payment/payment-methods';
import {
  isCentCurrency,
  type OpenTo,
  openToChoices,
  openToLabels,
  type PaymentMethodId,
  paymentMethodIds,
  type ShopSettings,
  shopSettingsSchema,
  type VersionedSettings,
} from '../../../shared/settings';
import { Alert } from '../../components/alert';
import { DocumentTitle } from '../../components/document-title';
import { Field } from '../../components/field';
import { ApiError, call, messageOf } from '../../lib/api';
import { countries, useRegions } from '../../lib/places';
import { AdminNav } from './admin-nav';
import { ChangeHistory } from './change-history';
import { ShippingSettingsFields } from './shipping-settings';
import { type ShippingDraft, shippingDraft, shippingOf } from './shipping-settings-values';
import { TaxSettings, type TaxValues, taxOf, taxValuesOf } from './tax-settings';
import { useFocusAfterRender } from './use-focus-after-render';

export async function loader() {
  const [reply, countryList] = await Promise.all([call('adminSettings'), countries()]);
  return { ...reply, countryOptions: countryList.map(({ code, name }) => [code, name] as const) };
}

/**
 * The shop's settings (docs/product.md §17): who the shop is, its bank account and the payment methods it offers. The
 * form saves with the version it was filled from; 'Reload the settings' fills it again from the settings as they now
 * are (a fresh editor, so nothing of the old is kept).
 */
export default function AdminSettingsPage() {
  const loaded = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const [reload, setReload] = useState({ asked: false, from: loaded, count: 0 });
  if (reload.asked && loaded !== reload.from) setReload({ asked: false, from: loaded, count: reload.count + 1 });

  function askReload() {
    setReload((current) => ({ ...current, asked: true, from: loaded }));
    void revalidator.revalidate();
  }

  return (
    <section className="page admin-page settings-page" aria-labelledby="settings-title">
      <DocumentTitle page={pages.adminSettings.title} />
      <h1 id="settings-title">Settings</h1>
      <AdminNav />
      <SettingsForm
        key={reload.count}
        settings={loaded.settings}
        countryOptions={loaded.countryOptions}
        onReload={askReload}
      />
      <ChangeHistory history={loaded.history} empty="No changes yet: the settings are as the shop first had them." />
    </section>
  );
}

/** The currencies a shop's prices may be in (those with cents), by name: [code, 'US Dollar (USD)']. Made once. */
let currencies: ReadonlyArray<readonly [string, string]> | undefined;
function currencyOptions(): ReadonlyArray<readonly [string, string]> {
  const names = new Intl.DisplayNames(['en'], { type: 'currency' });
  currencies ??= Intl.supportedValuesOf('currency')
    .filter(isCentCurrency)
    .map((code) => [code, `${names.of(code) ?? code} (${code})`] as const)
    .sort((a, b) => a[1].localeCompare(b[1], 'en'));
  return currencies;
}

/** The IANA time zones, by name. Made once. */
let timeZones: ReadonlyArray<readonly [string, string]> | undefined;
function timeZoneOptions(): ReadonlyArray<readonly [string, string]> {
  timeZones ??= Intl.supportedValuesOf('timeZone').map((zone) => [zone, zone.replaceAll('_', ' ')] as const);
  return timeZones;
}

/** The form's text fields, by their path in the settings (as the server names a field it refuses). */
const textFields = {
  'shop.name': { label: 'Name as shown', autoComplete: 'organization' },
  'shop.legalName': { label: 'Legal name', autoComplete: 'off' },
  'shop.address.line1': { label: 'Address line 1', autoComplete: 'address-line1' },
  'shop.address.line2': { label: 'Address line 2 (optional)', autoComplete: 'address-line2' },
  'shop.address.city': { label: 'City', autoComplete: 'address-level2' },
  'shop.address.region': { label: 'State or region', autoComplete: 'address-level1' },
  'shop.address.postalCode': { label: 'Postal code', autoComplete: 'postal-code' },
  'shop.address.country': { label: 'Country', autoComplete: 'country' },
  'shop.phone': { label: 'Phone', autoComplete: 'tel', type: 'tel' },
  'shop.email': { label: 'E-mail', autoComplete: 'email', type: 'email' },
  'shop.taxId': { label: 'Tax id (optional)', autoComplete: 'off' },
  'format.currency': { label: 'Currency', autoComplete: 'off' },
  'format.locale': {
    label: 'Language and region',
    autoComplete: 'off',
    hint: 'How amounts and dates are written, as a tag such as en-US or de-DE.',
  },
  'format.timeZone': { label: 'Time zone', autoComplete: 'off' },
  'bankTransfer.accountName': { label: 'Account name', autoComplete: 'off' },
  'bankTransfer.bankName': { label: 'Bank', autoComplete: 'off' },
  'bankTransfer.routingNumber': { label: 'Routing number', autoComplete: 'off' },
  'bankTransfer.accountNumber': { label: 'Account number', autoComplete: 'off' },
  'bankTransfer.payWithinDays': { label: 'Days to pay', autoComplete: 'off', inputMode: 'numeric' },
} as const;
type TextPath = keyof typeof textFields;

interface Values {
  text: Record<TextPath, string>;
  /** 'Who can see the shop'. */
  openTo: OpenTo;
  /** 'Cancel unpaid orders'. */
  cancelUnpaid: boolean;
  paymentMethods: PaymentMethodId[];
  shipping: ShippingDraft;
  tax: TaxValues;
}

function valuesOf(settings: ShopSettings): Values {
  // The shipping prices as the shop writes amounts, as saved.
  const { format } = settings;
  const text = Object.fromEntries(
    Object.keys(textFields).map((path) => {
      const value = path.split('.').reduce<unknown>((at, name) => (at as Record<string, unknown>)[name], settings);
      return [path, String(value ?? '')];
    }),
  ) as Record<TextPath, string>;
  return {
    text,
    openTo: settings.access.openTo,
    cancelUnpaid: settings.bankTransfer.cancelUnpaid,
    paymentMethods: [...settings.paymentMethods],
    shipping: shippingDraft(settings.shipping, format),
    tax: taxValuesOf(settings.tax),
  };
}

/**
 * The settings the values make, and each field's problem by the rules the server applies too; prices read as the shop
 * writes amounts (`format`, the settings' as loaded).
 */
function check(
  { text, openTo, cancelUnpaid, paymentMethods, shipping, tax }: Values,
  format: MoneyFormat,
): {
  input?: ShopSettings;
  problems: Record<string, string>;
} {
  const days = text['bankTransfer.payWithinDays'].trim();
  const document = {
    shop: {
      name: text['shop.name'],
      legalName: text['shop.legalName'],
      address: {
        line1: text['shop.address.line1'],
        line2: text['shop.address.line2'],
        city: text['shop.address.city'],
        region: text['shop.address.region'],
        postalCode: text['shop.address.postalCode'],
        country: text['shop.address.country'],
      },
      phone: text['shop.phone'],
      email: text['shop.email'],
      taxId: text['shop.taxId'],
    },
    access: { openTo },
    format: {
      currency: text['format.currency'],
      locale: text['format.locale'],
      timeZone: text['format.timeZone'],
    },
    bankTransfer: {
      payWithinDays: /^\d+$/.test(days) ? Number(days) : Number.NaN,
      accountName: text['bankTransfer.accountName'],
      bankName: text['bankTransfer.bankName'],
      routingNumber: text['bankTransfer.routingNumber'],
      accountNumber: text['bankTransfer.accountNumber'],
      cancelUnpaid,
    },
    paymentMethods,
    shipping: shippingOf(shipping, format),
    tax: taxOf(tax),
  };
  const result = shopSettingsSchema.safeParse(document);
  if (result.success) return { input: result.data, problems: {} };
  const problems: Record<string, string> = {};
  for (const issue of result.error.issues) {
    // A payment method's problem is the list's.
    const path = issue.path[0] === 'paymentMethods' ? 'paymentMethods' : issue.path.join('.');
    problems[path] ??= issue.message;
  }
  return { problems };
}

type Message = { kind: 'status' | 'alert'; text: string; changed?: boolean };

function SettingsForm({
  settings,
  countryOptions,
  onReload,
}: {
  settings: VersionedSettings;
  /** The countries a tax rate may be for, by name: [code, name]. */
  countryOptions: ReadonlyArray<readonly [code: string, name: string]>;
  onReload(): void;
}) {
  const revalidator = useRevalidator();
  const [values, setValues] = useState(() => valuesOf(settings));
  const [version, setVersion] = useState(settings.version);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [tried, setTried] = useState(false);
  const [serverProblem, setServerProblem] = useState<{ path: string; text: string } | null>(null);
  const [message, setMessage] = useState<Message | null>(null);
  const [busy, setBusy] = useState(false);
  const sending = useRef(false);
  const form = useRef<HTMLFormElement>(null);
  const focusNext = useFocusAfterRender();
  const methodsId = useId();
  const cancelUnpaidId = useId();
  const openToId = useId();
  const { input, problems } = check(values, settings.format);

  function problemAt(path: string): string | undefined {
    if (!tried && !touched.has(path)) return undefined;
    return problems[path] ?? (serverProblem?.path === path ? serverProblem.text : undefined);
  }

  function edited(path: string, change: (current: Values) => Values) {
    setValues(change);
    setTouched((current) => new Set(current).add(path));
    setServerProblem((current) => (current?.path === path ? null : current));
    setMessage((current) => (current?.kind === 'status' ? null : current));
  }

  function left(path: string) {
    setTouched((current) => (current.has(path) ? current : new Set(current).add(path)));
  }

  // The shop's state or region is one of its country's subdivisions, from their list (text for a country with none);
  // a new country empties it.
  const regions = useRegions(values.text['shop.address.country']);
  const choices: Partial<Record<TextPath, ReadonlyArray<readonly [string, string]>>> = {
    'shop.address.country': countryOptions,
    'format.currency': currencyOptions(),
    'format.timeZone': timeZoneOptions(),
    ...(regions?.length === 0
      ? {}
      : {
          'shop.address.region': [['', 'Choose…'], ...(regions ?? []).map(({ code, name }) => [code, name] as const)],
        }),
  };

  function textField(path: TextPath) {
    const { label, autoComplete, ...rest } = textFields[path];
    return (
      <Field
        key={path}
        label={label}
        name={path}
        autoComplete={autoComplete}
        {...rest}
        options={choices[path]}
        value={values.text[path]}
        error={problemAt(path)}
        announceError
        onChange={(event) => {
          const { value } = event.target;
          const emptied = path === 'shop.address.country' ? { 'shop.address.region': '' } : {};
          edited(path, (current) => ({ ...current, text: { ...current.text, [path]: value, ...emptied } }));
        }}
        onBlur={() => left(path)}
      />
    );
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending.current) return;
    setTried(true);
    setMessage(null);
    if (!input) {
      focusNext(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]'));
      return;
    }
    sending.current = true;
    setBusy(true);
    try {
      const { settings: saved } = await call('adminSaveSettings', { body: { ...input, version } });
      setVersion(saved.version);
      setValues(valuesOf(saved));
      setTouched(new Set());
      setTried(false);
      setServerProblem(null);
      setMessage({ kind: 'status', text: `Saved. This is version ${saved.version} of the settings.` });
      // The history, as it now is.
      await revalidator.revalidate();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'settings/invalid' && error.field) {
        const path = error.field.startsWith('paymentMethods') ? 'paymentMethods' : error.field;
        setServerProblem({ path, text: error.message });
        setTried(true);
        focusNext(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]'));
      } else {
        const changed = error instanceof ApiError && error.code === 'settings/changed';
        setMessage({ kind: 'alert', text: messageOf(error), changed });
      }
    }
    sending.current = false;
    setBusy(false);
  }

  const methodsProblem = problemAt('paymentMethods');
  return (
    <form ref={form} className="card form settings-form" aria-label="Settings" onSubmit={submit} noValidate>
      <fieldset>
        <legend>The shop</legend>
        {(
          [
            'shop.name',
            'shop.legalName',
            'shop.address.line1',
            'shop.address.line2',
            'shop.address.city',
            'shop.address.region',
            'shop.address.postalCode',
            'shop.address.country',
            'shop.phone',
            'shop.email',
            'shop.taxId',
          ] as const
        ).map(textField)}
      </fieldset>
      <fieldset aria-describedby={`${openToId}-hint`}>
        <legend>Who can see the shop</legend>
        <p id={`${openToId}-hint`} className="field-hint">
          Members only: a visitor is asked to sign up or log in first. Everyone: a visitor browses the products and
          fills a cart, and signs up to check out.
        </p>
        {openToChoices.map((choice) => (
          <div className="choice" key={choice}>
            <input
              type="radio"
              name="openTo"
              id={`${openToId}-${choice}`}
              checked={values.openTo === choice}
              onChange={() => edited('access.openTo', (current) => ({ ...current, openTo: choice }))}
            />
            <label htmlFor={`${openToId}-${choice}`}>{openToLabels[choice]}</label>
          </div>
        ))}
      </fieldset>
      <fieldset>
        <legend>Money and time</legend>
        <p className="field-hint">
          Prices are in the currency chosen; an order keeps the currency it was placed in. The shop's days (the books'
          export, the invoices' year, the last day to pay) are the time zone's.
        </p>
        {(['format.currency', 'format.locale', 'format.timeZone'] as const).map(textField)}
      </fieldset>
      <fieldset>
        <legend>Bank account for transfers</legend>
        {(
          [
            'bankTransfer.accountName',
            'bankTransfer.bankName',
            'bankTransfer.routingNumber',
            'bankTransfer.accountNumber',
            'bankTransfer.payWithinDays',
          ] as const
        ).map(textField)}
        <div className="choice">
          <input
            type="checkbox"
            id={cancelUnpaidId}
            checked={values.cancelUnpaid}
            aria-describedby={`${cancelUnpaidId}-hint`}
            onChange={(event) => {
              const { checked } = event.target;
              edited('bankTransfer.cancelUnpaid', (current) => ({ ...current, cancelUnpaid: checked }));
            }}
          />
          <label htmlFor={cancelUnpaidId}>Cancel unpaid orders</label>
          <p id={`${cancelUnpaidId}-hint`} className="field-hint">
            An order not paid after the days to pay gets one reminder by e-mail; still unpaid as many days after the
            reminder, the shop cancels it, and its stock and discount code are free again.
          </p>
        </div>
      </fieldset>
      <fieldset
        aria-describedby={`${methodsId}-hint${methodsProblem ? ` ${methodsId}-error` : ''}`}
        aria-invalid={methodsProblem ? true : undefined}
      >
        <legend>Payment methods offered</legend>
        <p id={`${methodsId}-hint`} className="field-hint">
          Card is offered only on a server with Stripe's keys (README, "Card payments").
        </p>
        {methodsOf(paymentMethodIds).map((method) => {
          const id = `${methodsId}-${method.id}`;
          const checked = values.paymentMethods.includes(method.id as PaymentMethodId);
          return (
            <div className="choice" key={method.id}>
              <input
                type="checkbox"
                id={id}
                checked={checked}
                onChange={(event) => {
                  const on = event.target.checked;
                  const methodId = method.id as PaymentMethodId;
                  edited('paymentMethods', (current) => ({
                    ...current,
                    paymentMethods: on
                      ? [...current.paymentMethods, methodId]
                      : current.paymentMethods.filter((m) => m !== methodId),
                  }));
                }}
              />
              <label htmlFor={id}>{method.label}</label>
            </div>
          );
        })}
        {methodsProblem && (
          <p id={`${methodsId}-error`} className="field-error" role="alert">
            {methodsProblem}
          </p>
        )}
      </fieldset>
      <ShippingSettingsFields
        shipping={values.shipping}
        problemAt={problemAt}
        onEdit={(path, change) => edited(path, (current) => ({ ...current, shipping: change(current.shipping) }))}
        onLeave={left}
        focusNext={focusNext}
      />
      <TaxSettings
        values={values.tax}
        countryOptions={countryOptions}
        problemAt={problemAt}
        onEdit={(path, tax) => edited(path, (current) => ({ ...current, tax }))}
      />
      {message && (
        <Alert kind={message.kind}>
          {message.text}
          {message.changed && (
            <>
              {' '}
              <button type="button" className="button button-quiet" onClick={onReload}>
                Reload the settings
              </button>
            </>
          )}
        </Alert>
      )}
      <p>
        <button type="submit" className="button" disabled={busy}>
          Save
        </button>
      </p>
    </form>
  );
}
