import type { SessionUser } from '../../shared/api';
import type { Passkey } from '../../shared/passkeys';
import type { Role } from '../../shared/roles';
import { ApiError, call } from './api';

/**
 * @simplewebauthn/browser, which speaks to the browser's WebAuthn, loads only when a passkey is used (or the log-in
 * form offers its autofill), so that no other page carries it; the pages import this module lazily for the same
 * reason.
 */
function loadWebAuthn() {
  return import('@simplewebauthn/browser');
}

/**
 * The passkey controls' own messages, beside the code that shows them rather than in src/shared/notices.ts, which
 * every page loads first.
 */
const passkeyNotices = {
  refused: 'No passkey was used: your browser or device cancelled or refused it.',
  previouslyRegistered: 'This device already holds a passkey for your account.',
} as const;

/**
 * The browser's answer; undefined when the ceremony was cancelled on purpose (another began, or the page went away),
 * which needs no word to the rider. A refusal is an ApiError the rider can read.
 */
async function explained<T>(ceremony: Promise<T>): Promise<T | undefined> {
  try {
    return await ceremony;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const { WebAuthnError } = await loadWebAuthn();
    if (error instanceof WebAuthnError && error.code === 'ERROR_CEREMONY_ABORTED') return undefined;
    const previously = error instanceof WebAuthnError && error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED';
    throw new ApiError(0, 'passkey/browser', previously ? passkeyNotices.previouslyRegistered : passkeyNotices.refused);
  }
}

/**
 * Makes a passkey on this device for the signed-in rider and stores it under `name` (needs a recent log-in);
 * undefined when cancelled.
 */
export async function addPasskey(name: string): Promise<Passkey | undefined> {
  const { startRegistration } = await loadWebAuthn();
  const optionsJSON = await call('passkeyRegistrationOptions');
  const response = await explained(startRegistration({ optionsJSON }));
  return response && (await call('addPasskey', { body: { name, response } })).passkey;
}

/**
 * Logs in with a passkey: from the browser's own prompt, or with `autofill` from the passkeys it offers under the
 * e-mail field (conditional mediation), which waits until the rider picks one. Undefined when this browser has no
 * such autofill, when the autofill is no longer `wanted` by the time the library has loaded (a form that went away asks
 * for no challenge), or when cancelled. Starting a ceremony cancels one still waiting.
 */
export async function logInWithPasskey(autofill?: {
  wanted(): boolean;
}): Promise<{ user: SessionUser; role: Role } | undefined> {
  const { startAuthentication, browserSupportsWebAuthnAutofill } = await loadWebAuthn();
  if (autofill && !((await browserSupportsWebAuthnAutofill()) && autofill.wanted())) return undefined;
  const optionsJSON = await call('passkeyLogInOptions');
  const response = await explained(startAuthentication({ optionsJSON, useBrowserAutofill: autofill !== undefined }));
  return response && call('passkeyLogIn', { body: { response } });
}

/** Cancels a passkey ceremony still waiting (the autofill, when the log-in form goes away). */
export async function cancelPasskey(): Promise<void> {
  const { WebAuthnAbortService } = await loadWebAuthn();
  WebAuthnAbortService.cancelCeremony();
}
