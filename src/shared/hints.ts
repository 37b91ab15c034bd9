import { limits } from './limits';

/**
 * What each field asks for, shown under its label on every form that has it: without zod, so that a form paints
 * before its rules (src/shared/validation.ts) load.
 */
export const hints = {
  email: `At least ${limits.emailMin} characters, a proper e-mail address.`,
  password: `${limits.passwordMin} to ${limits.passwordMax} characters.`,
  passkeyName: `1 to ${limits.passkeyNameMax} characters, such as Phone or Work laptop.`,
} as const;
