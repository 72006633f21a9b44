/**
 * The browser's passkeys (WebAuthn) through @simplewebauthn/browser: the only module that starts a
 * ceremony. Nothing here runs at import or render time (the login route is rendered at build time).
 */
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';

type Options = Record<string, unknown>;

/** True when this browser can use passkeys at all. */
export function arePasskeysSupported(): boolean {
  return typeof window !== 'undefined' && browserSupportsWebAuthn();
}

/** True when the browser can offer passkeys in a field's autofill (conditional mediation). */
export function isPasskeyAutofillSupported(): Promise<boolean> {
  return typeof window === 'undefined' ? Promise.resolve(false) : browserSupportsWebAuthnAutofill();
}

/** Creates a passkey with the server's registration options; the answer goes back to the server. */
export function createPasskey(options: Options): Promise<unknown> {
  return startRegistration({ optionsJSON: options as never });
}

/**
 * Asks for a passkey with the server's options: a prompt, or with `autofill` the suggestions of a
 * field marked `autocomplete="username webauthn"`. A new ceremony cancels the one under way.
 */
export function getPasskey(options: Options, autofill = false): Promise<unknown> {
  return startAuthentication({ optionsJSON: options as never, useBrowserAutofill: autofill });
}

/** True for the errors of a ceremony the person closed or another one replaced. */
export function isPasskeyCancelled(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'AbortError' || name === 'NotAllowedError';
}
