/** Sign-in with Google (spec 000 §2, §4, §8): the button /login and /register compose. */
export { GoogleSignInButton, type GoogleSignInButtonProps } from './google-sign-in-button.tsx';
export type { GoogleSession } from './google-sign-in-call.ts';
export type { GoogleRegistrationData } from './google-registration-state.ts';
