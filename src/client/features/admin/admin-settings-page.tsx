import { type FormEvent, useId, useRef, useState } from 'react';
import { useLoaderData, useRevalidator } from 'react-router';
import { pages } from '../../../shared/pages';
import type { VersionedSettings } from '../../../shared/settings';
import { Alert } from '../../components/alert';
import { DocumentTitle } from '../../components/document-title';
import { Field } from '../../components/field';
import { ApiError, call, messageOf } from '../../lib/api';
import { countries, useRegions } from '../../lib/places';
import { AccessSettings } from './access-settings';
import { AdminNav } from './admin-nav';
import { ChangeHistory } from './change-history';
import { PaymentMethodsSettings } from './payment-methods-settings';
import { ReturnsSettings } from './returns-settings';
import {
  check,
  currencyOptions,
  type TextPath,
  textFields,
  timeZoneOptions,
  type Values,
  valuesOf,
} from './settings-form-values';
import { ShippingSettingsFields } from './shipping-settings';
import { TaxSettings } from './tax-settings';
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
  const cancelUnpaidId = useId();
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
  const returnRegions = useRegions(values.returnToShop ? '' : values.text['returns.address.country']);
  const regionChoices = (list: typeof regions) =>
    list?.length === 0
      ? undefined
      : [['', 'Choose…'] as const, ...(list ?? []).map(({ code, name }) => [code, name] as const)];
  const choices: Partial<Record<TextPath, ReadonlyArray<readonly [string, string]>>> = {
    'shop.address.country': countryOptions,
    'returns.address.country': [['', 'Choose…'], ...countryOptions],
    'format.currency': currencyOptions(),
    'format.timeZone': timeZoneOptions(),
    'shop.address.region': regionChoices(regions),
    'returns.address.region': regionChoices(returnRegions),
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
          const emptied =
            path === 'shop.address.country'
              ? { 'shop.address.region': '' }
              : path === 'returns.address.country'
                ? { 'returns.address.region': '' }
                : {};
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
      <AccessSettings
        openTo={values.openTo}
        onChange={(openTo) => edited('access.openTo', (current) => ({ ...current, openTo }))}
      />
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
      <PaymentMethodsSettings
        chosen={values.paymentMethods}
        methodsProblem={methodsProblem}
        onEdit={(change) =>
          edited('paymentMethods', (current) => ({ ...current, paymentMethods: change(current.paymentMethods) }))
        }
      />
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
      <ReturnsSettings
        returnToShop={values.returnToShop}
        textField={textField}
        onReturnToShop={(returnToShop) => edited('returns.address', (current) => ({ ...current, returnToShop }))}
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
