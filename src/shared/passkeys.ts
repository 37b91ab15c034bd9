import './zod-config';
import { z } from 'zod';
import { passkeyNameSchema } from './validation';

/**
 * Passkeys (docs/product.md §15): the WebAuthn options the server hands the browser and
 * the browser's answers, as both sides read them. The options and answers are the JSON forms of WebAuthn's objects
 * that @simplewebauthn/browser and @simplewebauthn/server exchange; the server's schemas bound their size and shape
 * before Better Auth's passkey plugin verifies them.
 */

/** base64url, as WebAuthn's JSON carries every byte string; 4 KB is far beyond any real authenticator's. */
const bytes = z
  .string()
  .max(4096)
  .regex(/^[A-Za-z0-9_-]*$/, 'must be base64url');
const transports = z.array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'])).max(8);
const credentialRef = z.object({ id: bytes, type: z.literal('public-key'), transports: transports.optional() });
const userVerification = z.enum(['required', 'preferred', 'discouraged']);

/** What `navigator.credentials.create` is asked for (PublicKeyCredentialCreationOptionsJSON). */
export const registrationOptionsSchema = z.object({
  rp: z.object({ name: z.string(), id: z.string().optional() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  challenge: bytes,
  pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.literal('public-key') })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(credentialRef).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
      requireResidentKey: z.boolean().optional(),
      residentKey: z.enum(['discouraged', 'preferred', 'required']).optional(),
      userVerification: userVerification.optional(),
    })
    .optional(),
  attestation: z.enum(['direct', 'enterprise', 'indirect', 'none']).optional(),
});

/** What `navigator.credentials.get` is asked for (PublicKeyCredentialRequestOptionsJSON). */
export const authenticationOptionsSchema = z.object({
  challenge: bytes,
  timeout: z.number().optional(),
  rpId: z.string().optional(),
  allowCredentials: z.array(credentialRef).optional(),
  userVerification: userVerification.optional(),
});

/**
 * The fields every answer of an authenticator has. The shop asks for no extensions: of their results, only credProps
 * (which browsers add unasked) is read, and any other is dropped.
 */
const answer = {
  id: bytes.min(1),
  rawId: bytes.min(1),
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.object({ credProps: z.object({ rk: z.boolean().optional() }).optional() }),
};

/** A new passkey, as the browser answers `create` (RegistrationResponseJSON). */
export const registrationResponseSchema = z.object({
  ...answer,
  response: z.object({
    clientDataJSON: bytes,
    attestationObject: bytes,
    authenticatorData: bytes.optional(),
    transports: z.array(z.string().max(32)).max(8).optional(),
    publicKeyAlgorithm: z.number().optional(),
    publicKey: bytes.optional(),
  }),
});

/** A passkey's signature, as the browser answers `get` (AuthenticationResponseJSON). */
export const authenticationResponseSchema = z.object({
  ...answer,
  response: z.object({
    clientDataJSON: bytes,
    authenticatorData: bytes,
    signature: bytes,
    userHandle: bytes.optional(),
  }),
});

export const newPasskeySchema = z.strictObject({ name: passkeyNameSchema, response: registrationResponseSchema });
export const passkeyLogInSchema = z.strictObject({ response: authenticationResponseSchema });

/** A passkey as the account page lists it. */
export const passkeySchema = z.object({ id: z.string(), name: z.string(), createdAt: z.iso.datetime() });
export type Passkey = z.infer<typeof passkeySchema>;
