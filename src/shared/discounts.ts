/**
 * Discount codes (docs/product.md §16): what a code gives and its limits, the owner's form, the
 * refusals a rider reads, and what a code takes off an order. See docs/decisions/0039-discount-codes.md.
 */
import { z } from 'zod';
import { day } from './admin';
import { formatCents, type MoneyFormat } from './money';
import type { Adjustment } from './pricing';

export const discountLimits = {
  codeMin: 3,
  codeMax: 32,
  /** $100,000.00, as a product's price. */
  amountMaxCents: 10_000_000,
  usesMax: 1_000_000,
  /** Codes tried that did not work, per account and per client address, in the throttle's window (ADR 0039). */
  guessesPerAccount: 10,
  guessesPerAddress: 30,
} as const;

export const discountKinds = ['percent', 'amount', 'free-shipping'] as const;
export type DiscountKind = (typeof discountKinds)[number];

export const discountKindLabels: Record<DiscountKind, string> = {
  percent: 'A percentage off the goods',
  amount: 'An amount off the goods',
  'free-shipping': 'Free shipping',
};

/** The one way codes are compared: without case. */
export function codeKey(code: string): string {
  return code.toLowerCase();
}

const codeText = `A code is ${discountLimits.codeMin} to ${discountLimits.codeMax} letters and digits.`;

/** A code as a rider types it: letters and digits, any case (a rider's spaces around it are forgiven). */
export const discountCodeSchema = z
  .string({ error: codeText })
  .trim()
  .regex(new RegExp(`^[A-Za-z0-9]{${discountLimits.codeMin},${discountLimits.codeMax}}$`), codeText);

const optionalDay = day.nullable();

/** What a code gives: a whole percentage off the goods, an amount off them, or free shipping. */
export const discountGivesSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({
      kind: z.literal('percent'),
      percent: z
        .number({ error: 'Give a whole percentage from 1 to 100.' })
        .int('Give a whole percentage from 1 to 100.')
        .min(1, 'Give a whole percentage from 1 to 100.')
        .max(100, 'Give a whole percentage from 1 to 100.'),
    }),
    z.strictObject({
      kind: z.literal('amount'),
      amountCents: z
        .number({ error: 'Give the amount off in cents.' })
        .int('Give the amount off in cents.')
        .min(1, 'The amount off must be more than zero.')
        .max(discountLimits.amountMaxCents, 'The amount off is too large.'),
    }),
    z.strictObject({ kind: z.literal('free-shipping') }),
  ],
  { error: 'Choose what the code gives.' },
);
export type DiscountGives = z.infer<typeof discountGivesSchema>;

/** The owner's new code. Its limits stay as made; the owner switches a code off and on. */
export const newDiscountSchema = z
  .strictObject({
    code: discountCodeSchema,
    gives: discountGivesSchema,
    minSubtotalCents: z
      .number({ error: 'Give the minimum subtotal in cents.' })
      .int('Give the minimum subtotal in cents.')
      .min(1, 'The minimum subtotal must be more than zero.')
      .max(discountLimits.amountMaxCents, 'The minimum subtotal is too large.')
      .nullable(),
    firstDay: optionalDay,
    lastDay: optionalDay,
    maxUses: z
      .number({ error: 'Give the number of uses as a whole number.' })
      .int('Give the number of uses as a whole number.')
      .min(1, 'A code is used at least once.')
      .max(discountLimits.usesMax, `At most ${discountLimits.usesMax} uses.`)
      .nullable(),
    oncePerRider: z.boolean({ error: "Say whether the code is 'Once per rider'." }),
  })
  .refine(({ firstDay, lastDay }) => firstDay === null || lastDay === null || firstDay <= lastDay, {
    path: ['lastDay'],
    message: 'The last day cannot come before the first.',
  });
export type NewDiscount = z.infer<typeof newDiscountSchema>;

export const discountSchema = z.object({
  id: z.string(),
  code: z.string(),
  gives: discountGivesSchema,
  minSubtotalCents: z.number().int().nullable(),
  firstDay: z.string().nullable(),
  lastDay: z.string().nullable(),
  maxUses: z.number().int().nullable(),
  oncePerRider: z.boolean(),
  enabled: z.boolean(),
  /** Orders that used it and were not cancelled. */
  uses: z.number().int(),
  createdAt: z.string(),
});
export type Discount = z.infer<typeof discountSchema>;

export const discountSwitchSchema = z.strictObject({ enabled: z.boolean({ error: 'Say on or off.' }) });

/** Why a code cannot be used now. */
export type DiscountRefusal = 'invalid' | 'expired' | 'minimum' | 'used-up' | 'already-used';

/** What a rider is told of a code that cannot be used; `minimum` names the least subtotal. */
export function refusalText(reason: DiscountRefusal, minSubtotalCents: number, format: MoneyFormat): string {
  switch (reason) {
    case 'invalid':
      return 'This code is not valid.';
    case 'expired':
      return 'This code has expired.';
    case 'minimum':
      return `This code needs an order of at least ${formatCents(minSubtotalCents, format)}.`;
    case 'used-up':
      return 'This code has been used up.';
    case 'already-used':
      return 'You have already used this code.';
  }
}

/** What a code does to an order's price (pricing.ts): an adjustment that names it, and whether shipping is free. */
export interface DiscountEffect {
  adjustments: Adjustment[];
  freeShipping: boolean;
}

/**
 * The adjustment of a code on goods of `subtotalCents`: a percentage rounded half up to the cent, or the amount (priceOrder
 * takes the goods to zero at most); free shipping takes nothing off the goods and makes the delivery's price zero.
 */
export function discountEffect(code: string, gives: DiscountGives, subtotalCents: number): DiscountEffect {
  if (gives.kind === 'free-shipping') {
    return { adjustments: [{ label: `Discount ${code} (free shipping)`, amountCents: 0, code }], freeShipping: true };
  }
  const off = gives.kind === 'percent' ? Math.floor((subtotalCents * gives.percent + 50) / 100) : gives.amountCents;
  return { adjustments: [{ label: `Discount ${code}`, amountCents: -off, code }], freeShipping: false };
}

/** No code: the price as it was. */
export const noDiscount: DiscountEffect = { adjustments: [], freeShipping: false };
