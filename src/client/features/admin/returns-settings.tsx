import { type ReactNode, useId } from 'react';
import type { TextPath } from './settings-form-values';

/**
 * 'Returns' and 'Reports' in the settings (docs/product.md §25, §26): days to return, where returns go (the shop's
 * address, or one of their own), and how few of a size the reports call low. The text fields are the form's own.
 */
export function ReturnsSettings({
  returnToShop,
  textField,
  onReturnToShop,
}: {
  returnToShop: boolean;
  textField(path: TextPath): ReactNode;
  onReturnToShop(returnToShop: boolean): void;
}) {
  const toShopId = useId();
  return (
    <>
      <fieldset>
        <legend>Returns</legend>
        {textField('returns.days')}
        <div className="choice">
          <input
            type="checkbox"
            id={toShopId}
            checked={returnToShop}
            onChange={(event) => onReturnToShop(event.target.checked)}
          />
          <label htmlFor={toShopId}>Riders send returns to the shop's address</label>
        </div>
        {!returnToShop &&
          (
            [
              'returns.address.line1',
              'returns.address.line2',
              'returns.address.city',
              'returns.address.region',
              'returns.address.postalCode',
              'returns.address.country',
            ] as const
          ).map(textField)}
      </fieldset>
      <fieldset>
        <legend>Reports</legend>
        {textField('reports.lowStock')}
      </fieldset>
    </>
  );
}
