import { type FormEvent, useId, useRef, useState } from 'react';
import { useLoaderData, useRevalidator } from 'react-router';
import {
  type Discount,
  type DiscountGives,
  type DiscountKind,
  discountKindLabels,
  discountKinds,
  type NewDiscount,
} from '../../../shared/discounts';
import { formatCents, type MoneyFormat, parseCents } from '../../../shared/money';
import { pages } from '../../../shared/pages';
import { Alert } from '../../components/alert';
import { DataTable } from '../../components/data-table';
import { DocumentTitle } from '../../components/document-title';
import { Field } from '../../components/field';
import { ApiError, call, messageOf } from '../../lib/api';
import { useFormat } from '../../lib/shop';
import { AdminNav } from './admin-nav';
import { useFocusAfterRender } from './use-focus-after-render';

export async function loader() {
  return call('adminDiscounts');
}

interface Values {
  code: string;
  kind: DiscountKind;
  percent: string;
  amount: string;
  minimum: string;
  firstDay: string;
  lastDay: string;
  maxUses: string;
  oncePerRider: boolean;
}

type TextField = Exclude<keyof Values, 'kind' | 'oncePerRider'>;

const empty: Values = {
  code: '',
  kind: 'percent',
  percent: '',
  amount: '',
  minimum: '',
  firstDay: '',
  lastDay: '',
  maxUses: '',
  oncePerRider: false,
};

/** The form's field of a path the server names (`gives.percent`, `maxUses`, ...). */
const fieldOfPath: Readonly<Record<string, keyof Values>> = {
  code: 'code',
  'gives.kind': 'kind',
  'gives.percent': 'percent',
  'gives.amountCents': 'amount',
  minSubtotalCents: 'minimum',
  firstDay: 'firstDay',
  lastDay: 'lastDay',
  maxUses: 'maxUses',
};

/** An amount typed in dollars as cents, null when left empty, NaN when not an amount (the field says so). */
function centsOf(text: string, format: MoneyFormat): number | null {
  if (text.trim() === '') return null;
  return parseCents(text, format) ?? Number.NaN;
}

function wholeOf(text: string): number | null {
  if (text.trim() === '') return null;
  return /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
}

/** What the owner typed, as the server takes it, or the problems the form finds itself. */
function inputOf(
  values: Values,
  format: MoneyFormat,
): { input?: NewDiscount; problems: Partial<Record<keyof Values, string>> } {
  const problems: Partial<Record<keyof Values, string>> = {};
  const percent = wholeOf(values.percent);
  const amount = centsOf(values.amount, format);
  const minimum = centsOf(values.minimum, format);
  const maxUses = wholeOf(values.maxUses);
  if (values.kind === 'percent' && (percent === null || Number.isNaN(percent))) {
    problems.percent = 'Give a whole percentage from 1 to 100.';
  }
  if (values.kind === 'amount' && (amount === null || Number.isNaN(amount))) {
    problems.amount = 'Give the amount off in dollars and cents, like 15.00.';
  }
  if (Number.isNaN(minimum)) problems.minimum = 'Give the minimum subtotal in dollars and cents, like 100.00.';
  if (Number.isNaN(maxUses)) problems.maxUses = 'Give the number of uses as a whole number.';
  if (Object.keys(problems).length > 0) return { problems };
  const gives: DiscountGives =
    values.kind === 'percent'
      ? { kind: 'percent', percent: percent as number }
      : values.kind === 'amount'
        ? { kind: 'amount', amountCents: amount as number }
        : { kind: 'free-shipping' };
  return {
    input: {
      code: values.code.trim(),
      gives,
      minSubtotalCents: minimum,
      firstDay: values.firstDay.trim() || null,
      lastDay: values.lastDay.trim() || null,
      maxUses,
      oncePerRider: values.oncePerRider,
    },
    problems,
  };
}

/** What a code gives, as the list says it. */
function givesText(gives: DiscountGives, format: MoneyFormat): string {
  if (gives.kind === 'percent') return `${gives.percent}% off the goods`;
  if (gives.kind === 'amount') return `${formatCents(gives.amountCents, format)} off the goods`;
  return 'Free shipping';
}

/** A code's limits, as the list says them. */
function limitsText(discount: Discount, format: MoneyFormat): string {
  const parts = [
    discount.minSubtotalCents !== null ? `From a subtotal of ${formatCents(discount.minSubtotalCents, format)}` : '',
    discount.firstDay !== null ? `From ${discount.firstDay}` : '',
    discount.lastDay !== null ? `Until ${discount.lastDay}` : '',
    discount.oncePerRider ? 'Once per rider' : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : 'None';
}

const kindOptions = discountKinds.map((kind) => [kind, discountKindLabels[kind]] as const);

/**
 * The owner's discount codes (docs/product.md §16): a form for a new one, and the list with each code's uses, to
 * switch a code off or on. A code is never deleted: the orders that used it name it.
 */
export default function AdminDiscountsPage() {
  const format = useFormat();
  const { discounts } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const [values, setValues] = useState<Values>(empty);
  const [tried, setTried] = useState(false);
  const [serverProblem, setServerProblem] = useState<{ field: keyof Values; text: string } | null>(null);
  const [message, setMessage] = useState<{ kind: 'status' | 'alert'; text: string } | null>(null);
  const sending = useRef(false);
  const form = useRef<HTMLFormElement>(null);
  const focusNext = useFocusAfterRender();
  const onceId = useId();

  const { input, problems } = inputOf(values, format);
  const problemAt = (field: keyof Values) =>
    (tried ? problems[field] : undefined) ?? (serverProblem?.field === field ? serverProblem.text : undefined);

  function edit<K extends keyof Values>(field: K, value: Values[K]) {
    setValues((current) => ({ ...current, [field]: value }));
    setServerProblem((current) => (current?.field === field ? null : current));
  }

  function text(field: TextField) {
    return {
      name: field,
      value: values[field],
      error: problemAt(field),
      autoComplete: 'off',
      onChange: (event: { target: { value: string } }) => edit(field, event.target.value),
      onBlur: () => {},
    };
  }

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending.current) return;
    setTried(true);
    setMessage(null);
    const invalid = () => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!input) {
      focusNext(invalid);
      return;
    }
    sending.current = true;
    try {
      const { discount } = await call('adminCreateDiscount', { body: input });
      setValues(empty);
      setTried(false);
      setMessage({ kind: 'status', text: `The code ${discount.code} is ready.` });
      await revalidator.revalidate();
    } catch (error) {
      const field = error instanceof ApiError && error.field ? fieldOfPath[error.field] : undefined;
      if (field) {
        setServerProblem({ field, text: messageOf(error) });
        focusNext(invalid);
      } else {
        setMessage({ kind: 'alert', text: messageOf(error) });
      }
    }
    sending.current = false;
  }

  async function turn(discount: Discount, enabled: boolean) {
    setMessage(null);
    try {
      await call('adminSwitchDiscount', { params: { id: discount.id }, body: { enabled } });
      setMessage({ kind: 'status', text: `The code ${discount.code} is ${enabled ? 'on' : 'off'}.` });
    } catch (error) {
      setMessage({ kind: 'alert', text: messageOf(error) });
    }
    await revalidator.revalidate();
  }

  return (
    <section className="page admin-page" aria-labelledby="discounts-title">
      <DocumentTitle page={pages.adminDiscounts.title} />
      <h1 id="discounts-title">Discounts</h1>
      <AdminNav />
      {message && <Alert kind={message.kind}>{message.text}</Alert>}
      <h2 id="new-discount-title">New discount code</h2>
      <form ref={form} className="card form" aria-labelledby="new-discount-title" onSubmit={create} noValidate>
        <Field label="Code" hint="Letters and digits; riders may type it in any case." {...text('code')} />
        <Field
          label="What it gives"
          name="kind"
          autoComplete="off"
          options={kindOptions}
          value={values.kind}
          error={problemAt('kind')}
          onChange={(event) => edit('kind', event.target.value as DiscountKind)}
          onBlur={() => {}}
        />
        {values.kind === 'percent' && <Field label="Percentage off" inputMode="numeric" {...text('percent')} />}
        {values.kind === 'amount' && (
          <Field label="Amount off" inputMode="decimal" hint="In dollars and cents, like 15.00." {...text('amount')} />
        )}
        <Field
          label="Minimum subtotal (optional)"
          inputMode="decimal"
          hint="In dollars and cents: the goods before the discount."
          {...text('minimum')}
        />
        <Field
          label="First day (optional)"
          hint={`Like 2026-03-01, in the shop's time zone (${format.timeZone}).`}
          {...text('firstDay')}
        />
        <Field label="Last day (optional)" hint="Like 2026-05-31; the code works all that day." {...text('lastDay')} />
        <Field
          label="Total uses (optional)"
          inputMode="numeric"
          hint="Orders that may use it, all riders together."
          {...text('maxUses')}
        />
        <div className="choice">
          <input
            type="checkbox"
            id={onceId}
            checked={values.oncePerRider}
            aria-describedby={`${onceId}-hint`}
            onChange={(event) => edit('oncePerRider', event.target.checked)}
          />
          <label htmlFor={onceId}>Once per rider</label>
          <p id={`${onceId}-hint`} className="field-hint">
            One order per e-mail address, even from a new account with the same address.
          </p>
        </div>
        <p>
          <button type="submit" className="button">
            Create code
          </button>
        </p>
      </form>
      <h2 id="codes-title">Codes</h2>
      {discounts.length === 0 ? (
        <p>No discount codes yet.</p>
      ) : (
        <DataTable labelledBy="codes-title">
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col">Gives</th>
              <th scope="col">Limits</th>
              <th scope="col" className="number">
                Uses
              </th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {discounts.map((discount) => (
              <tr key={discount.id}>
                <th scope="row">{discount.code}</th>
                <td>{givesText(discount.gives, format)}</td>
                <td>{limitsText(discount, format)}</td>
                <td className="number">
                  {discount.maxUses === null ? discount.uses : `${discount.uses} of ${discount.maxUses}`}
                </td>
                <td>
                  {discount.enabled ? 'On' : 'Off'}{' '}
                  <button
                    type="button"
                    className="button button-quiet"
                    aria-label={`${discount.enabled ? 'Switch off' : 'Switch on'} ${discount.code}`}
                    onClick={() => turn(discount, !discount.enabled)}
                  >
                    {discount.enabled ? 'Switch off' : 'Switch on'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
    </section>
  );
}
