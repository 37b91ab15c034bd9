import { type FormEvent, useId, useState } from 'react';
import type { Delivery } from '../../../shared/delivery';
import { discountOf, type OrderMoney } from '../../../shared/pricing';
import { call, messageOf } from '../../lib/api';

interface DiscountCodeProps {
  delivery: Delivery;
  /** The quote the page shows: its discount line names the code applied, if any. */
  money: OrderMoney;
  /** Why the code applied earlier no longer works, when the page's quote found so. */
  problem: string | null;
  /** A code the server accepted (the page asks for its quote with it), or null to take it off. */
  onApplied(code: string | null): void;
}

/**
 * The checkout's 'Discount code' and 'Apply' (docs/product.md §16): the server says whether the code works for this
 * cart and delivery (the page's quote then shows its line and the new totals) or why not, in its own words.
 */
export function DiscountCode({ delivery, money, problem, onApplied }: DiscountCodeProps) {
  const [code, setCode] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const applied = discountOf(money)?.code;
  const error = refusal ?? problem;

  async function apply(event: FormEvent) {
    event.preventDefault();
    if (busy || code.trim() === '') return;
    setBusy(true);
    setRefusal(null);
    try {
      await call('quote', { query: { delivery, discountCode: code.trim() } });
      onApplied(code.trim());
      setCode('');
    } catch (failure) {
      setRefusal(messageOf(failure));
    }
    setBusy(false);
  }

  return (
    <div className="card form discount-code">
      <div className="field">
        <label htmlFor={id}>Discount code</label>
        <div className="inline-field">
          <input
            id={id}
            name="discountCode"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            value={code}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(event) => {
              setCode(event.target.value);
              setRefusal(null);
            }}
            onKeyDown={(event) => {
              // Enter applies the code; it never places the order.
              if (event.key === 'Enter') void apply(event);
            }}
          />
          <button type="button" className="button" disabled={busy} onClick={apply}>
            Apply
          </button>
        </div>
        {error && (
          <p id={`${id}-error`} className="field-error" role="alert">
            {error}
          </p>
        )}
      </div>
      {applied && (
        <p role="status">
          Code {applied} applied.{' '}
          <button type="button" className="button button-quiet" onClick={() => onApplied(null)}>
            Remove code
          </button>
        </p>
      )}
    </div>
  );
}
