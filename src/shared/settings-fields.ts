/**
 * The text fields of the shop's settings (src/shared/settings.ts): one line of text, or a required one, as every
 * section's schema writes them, and the longest value of each of the shop's own fields.
 */
import './zod-config';
import { z } from 'zod';
import { noControlCharacters } from './text';

/** Each field's name in messages and its longest value. */
export const settingsLimits = {
  nameMax: 80,
  legalNameMax: 120,
  phoneMax: 30,
  taxIdMax: 40,
  bankTextMax: 80,
  payWithinDaysMax: 60,
} as const;

/** Something to read: not only spaces and invisible marks. */
const visible = /[^\p{Z}\p{Cf}\s]/u;

export function line(name: string, max: number) {
  return z
    .string({ error: `${name} must be text.` })
    .trim()
    .max(max, `${name} must be at most ${max} characters.`)
    .regex(noControlCharacters, `${name} must be on one line, without control characters.`);
}

export function required(name: string, max: number) {
  return line(name, max)
    .min(1, `${name} is required.`)
    .refine((text) => visible.test(text), `${name} is required.`);
}
