import './zod-config';
import { z } from 'zod';

import { limits, productLimits } from './limits';

/** One rule set for every form, used by the browser and the server alike (docs/product.md §3). */

export const messages = {
  emailRequired: 'E-mail is required.',
  emailTooShort: `E-mail must be at least ${limits.emailMin} characters.`,
  emailTooLong: `E-mail must be at most ${limits.emailMax} characters.`,
  emailFormat: 'E-mail must be a proper e-mail address, like name@example.com, with no spaces.',
  passwordRequired: 'Password is required.',
  passwordTooShort: `Password must be at least ${limits.passwordMin} characters.`,
  passwordTooLong: `Password must be at most ${limits.passwordMax} characters.`,
  passkeyNameRequired: 'Please give the passkey a name.',
  passkeyNameTooLong: `The name must be at most ${limits.passkeyNameMax} characters.`,
} as const;

export const emailSchema = z
  .string({ error: messages.emailRequired })
  .min(1, messages.emailRequired)
  .min(limits.emailMin, messages.emailTooShort)
  .max(limits.emailMax, messages.emailTooLong)
  // docs/product.md §3: `something@something` with no spaces; the sign-in library also needs a dotted
  // domain, so the rule is zod's e-mail check, which covers both and keeps every form and route in step.
  .check(z.email({ error: messages.emailFormat }));

export const passwordSchema = z
  .string({ error: messages.passwordRequired })
  .min(1, messages.passwordRequired)
  .min(limits.passwordMin, messages.passwordTooShort)
  .max(limits.passwordMax, messages.passwordTooLong);

/** A passkey's name, trimmed: 'Phone', 'Work laptop'. */
export const passkeyNameSchema = z
  .string({ error: messages.passkeyNameRequired })
  .trim()
  .min(1, messages.passkeyNameRequired)
  .max(limits.passkeyNameMax, messages.passkeyNameTooLong);

export const credentialsSchema = z.strictObject({ email: emailSchema, password: passwordSchema });
export const newEmailSchema = z.strictObject({ email: emailSchema });
export const newPasswordSchema = z.strictObject({ password: passwordSchema });
export const passkeyNameFormSchema = z.strictObject({ name: passkeyNameSchema });
/** The token of a link the shop e-mails (a password reset, an address confirmation): 32 random bytes, base64url. */
export const linkTokenSchema = z
  .string({ error: 'token must be a string.' })
  .regex(/^[A-Za-z0-9_-]{43}$/, 'This is not a link the shop sent.');
export const resetRequestSchema = z.strictObject({ email: emailSchema });
/** A link's token, sent to check or use the link. */
export const linkSchema = z.strictObject({ token: linkTokenSchema });
export const resetPasswordSchema = z.strictObject({ token: linkTokenSchema, password: passwordSchema });

/** 'Email me when it is back' (docs/product.md §27): a product's size, by name; one not sold is the route's refusal. */
export const stockAlertRequestSchema = z.strictObject({
  itemid: z.string({ error: 'itemid must be a string.' }).max(16),
  size: z.string({ error: 'size must be a string.' }).max(productLimits.sizeMax),
});

export const addToCartSchema = z.strictObject({
  // Any string up to 16 characters is a well-formed item number; one not in the catalogue, the empty
  // string included, is the route's `cart/unknown-item`.
  itemid: z.string({ error: 'itemid must be a string.' }).max(16),
  // Any string up to 32 characters is a well-formed size; one the product does not come in, or none for a product
  // with several, is the route's `cart/invalid-size`.
  size: z.string({ error: 'size must be a string.' }).max(productLimits.sizeMax).optional(),
});

export type Credentials = z.infer<typeof credentialsSchema>;

/** The first problem with each field, for showing next to that field; empty when the form is valid. */
export function fieldErrors(schema: z.ZodType, values: unknown): Record<string, string> {
  const result = schema.safeParse(values);
  const errors: Record<string, string> = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= issue.message;
  }
  return errors;
}
