import { describe, expect, it } from 'vitest';
import { credentialsSchema, fieldErrors, messages, newEmailSchema, newPasswordSchema } from './validation';

const valid = { email: 'rider@example.com', password: 'secret1' };

describe('validation', () => {
  it('accepts a proper e-mail and a 6 to 16 character password', () => {
    expect(fieldErrors(credentialsSchema, valid)).toEqual({});
    expect(fieldErrors(credentialsSchema, { ...valid, password: '123456' })).toEqual({});
    expect(fieldErrors(credentialsSchema, { ...valid, password: 'x'.repeat(16) })).toEqual({});
  });

  it.each([
    ['', messages.emailRequired],
    ['a@b.c', messages.emailTooShort],
    ['rider@', messages.emailFormat],
    ['rider example.com', messages.emailFormat],
    ['ri der@example.com', messages.emailFormat],
    ['rider@stable', messages.emailFormat],
    [`${'x'.repeat(250)}@example.com`, messages.emailTooLong],
  ])('refuses the e-mail %j with %j', (email, message) => {
    expect(fieldErrors(credentialsSchema, { ...valid, email }).email).toBe(message);
    expect(fieldErrors(newEmailSchema, { email }).email).toBe(message);
  });

  it.each([
    ['', messages.passwordRequired],
    ['12345', messages.passwordTooShort],
    ['x'.repeat(17), messages.passwordTooLong],
  ])('refuses the password %j with %j', (password, message) => {
    expect(fieldErrors(credentialsSchema, { ...valid, password }).password).toBe(message);
    expect(fieldErrors(newPasswordSchema, { password }).password).toBe(message);
  });

  it('refuses missing fields, wrong types and unknown fields', () => {
    expect(fieldErrors(credentialsSchema, {})).toEqual({
      email: messages.emailRequired,
      password: messages.passwordRequired,
    });
    expect(fieldErrors(credentialsSchema, { email: 42, password: null }).email).toBe(messages.emailRequired);
    expect(credentialsSchema.safeParse({ ...valid, fullName: 'x' }).success).toBe(false);
  });
});
