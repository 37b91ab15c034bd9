import { Hono } from 'hono';
import { endpoints } from '../../shared/api';
import type { ErrorCode } from '../../shared/errors';
import type { AppEnv } from '../app-env';
import type { Sessions } from '../auth/sessions';
import { HttpError } from '../http/errors';
import { readJson } from '../http/input';
import type { DiscountStore } from './discount-store';

/** The form's fields: a problem with one is `discount/field`, with the field's path for the form to show it there. */
const formFields: Record<string, ErrorCode> = {
  code: 'discount/form-invalid',
  gives: 'discount/form-invalid',
  minSubtotalCents: 'discount/form-invalid',
  firstDay: 'discount/form-invalid',
  lastDay: 'discount/form-invalid',
  maxUses: 'discount/form-invalid',
  oncePerRider: 'discount/form-invalid',
};

/** The owner's discount codes (docs/product.md §16): owners only, like the rest of the back office. */
export function discountRoutes({ sessions, discounts }: { sessions: Sessions; discounts: DiscountStore }) {
  const owner = sessions.require({ owner: true });
  return new Hono<AppEnv>()
    .get(endpoints.adminDiscounts.path, owner, async (c) => c.json({ discounts: await discounts.all() }))

    .post(endpoints.adminCreateDiscount.path, owner, async (c) => {
      const input = await readJson(c, endpoints.adminCreateDiscount.body, formFields);
      const result = await discounts.create(c.get('session').user, input);
      if (!result.ok) throw new HttpError('discount/code-taken', undefined, {}, { field: 'code' });
      return c.json({ discount: result.discount }, 201);
    })

    .put(endpoints.adminSwitchDiscount.path, owner, async (c) => {
      const { enabled } = await readJson(c, endpoints.adminSwitchDiscount.body);
      const discount = await discounts.setEnabled(c.req.param('id'), enabled);
      if (!discount) throw new HttpError('discount/not-found');
      return c.json({ discount });
    });
}
