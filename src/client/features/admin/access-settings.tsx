import { useId } from 'react';
import { type OpenTo, openToChoices, openToLabels } from '../../../shared/settings';

/** 'Who can see the shop' (docs/product.md §23): members only, or everyone. */
export function AccessSettings({ openTo, onChange }: { openTo: OpenTo; onChange(openTo: OpenTo): void }) {
  const openToId = useId();
  return (
    <fieldset aria-describedby={`${openToId}-hint`}>
      <legend>Who can see the shop</legend>
      <p id={`${openToId}-hint`} className="field-hint">
        Members only: a visitor is asked to sign up or log in first. Everyone: a visitor browses the products and fills
        a cart, and signs up to check out.
      </p>
      {openToChoices.map((choice) => (
        <div className="choice" key={choice}>
          <input
            type="radio"
            name="openTo"
            id={`${openToId}-${choice}`}
            checked={openTo === choice}
            onChange={() => onChange(choice)}
          />
          <label htmlFor={`${openToId}-${choice}`}>{openToLabels[choice]}</label>
        </div>
      ))}
    </fieldset>
  );
}
