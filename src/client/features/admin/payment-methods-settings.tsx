import { useId } from 'react';
import { methodsOf } from '../../../shared/payment/payment-methods';
import { type PaymentMethodId, paymentMethodIds } from '../../../shared/settings';

interface PaymentMethodsSettingsProps {
  /** The methods ticked: the saved ones in their order, then each ticked since. */
  chosen: readonly PaymentMethodId[];
  /** The list's problem, shown under it. */
  methodsProblem: string | undefined;
  onEdit(change: (chosen: PaymentMethodId[]) => PaymentMethodId[]): void;
}

/** 'Payment methods offered' (docs/product.md §17): those the checkout offers, in this order. */
export function PaymentMethodsSettings({ chosen, methodsProblem, onEdit }: PaymentMethodsSettingsProps) {
  const methodsId = useId();
  return (
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
        const checked = chosen.includes(method.id as PaymentMethodId);
        return (
          <div className="choice" key={method.id}>
            <input
              type="checkbox"
              id={id}
              checked={checked}
              onChange={(event) => {
                const on = event.target.checked;
                const methodId = method.id as PaymentMethodId;
                onEdit((current) => (on ? [...current, methodId] : current.filter((m) => m !== methodId)));
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
  );
}
