import { proxy } from 'valtio';
import { toast } from '../../ui/toast-store.ts';
import { type TokenStorage, tokenStorage } from '../../services/token-storage.ts';
import { GOOGLE_DATA_MISSING, readGoogleAccount } from './google-id-token.ts';
import {
  callGoogleSignIn,
  type GoogleSession,
  GoogleSignInError,
  type GoogleSignInRequest,
} from './google-sign-in-call.ts';
import { GOOGLE_SCREEN_MESSAGES, googleSignInScreenMessage } from './google-sign-in-messages.ts';
import type { GoogleRegistrationData } from './google-registration-state.ts';
import type { SecondStepChallenge } from '#shared/security/security-schemas';

/** Whether Google's button could be shown. */
export type GoogleScriptStatus = { status: 'loading' } | { status: 'ready' } | { status: 'unavailable' };

/** The sign-in started by the button. */
export type GoogleSignInStatus = { status: 'idle' } | { status: 'signing-in' } | { status: 'failed'; message: string };

export type GoogleSignInState = { script: GoogleScriptStatus; signIn: GoogleSignInStatus };

/** Where a sign-in ends: the app's session is stored, or a Google registration must start. */
export type GoogleSignInOutcome =
  | { outcome: 'signed-in'; session: GoogleSession }
  | { outcome: 'second-step'; challenge: SecondStepChallenge }
  | { outcome: 'needs-registration'; data: GoogleRegistrationData }
  | { outcome: 'failed'; message: string };

export type GoogleSignInDeps = {
  call: (body: GoogleSignInRequest) => Promise<GoogleSession | SecondStepChallenge>;
  storage: Pick<TokenStorage, 'save'>;
};

export function createGoogleSignInStore(deps: GoogleSignInDeps) {
  const state = proxy<GoogleSignInState>({ script: { status: 'loading' }, signIn: { status: 'idle' } });

  const fail = (message: string): GoogleSignInOutcome => {
    state.signIn = { status: 'failed', message };
    return { outcome: 'failed', message };
  };

  return {
    state,
    actions: {
      setScriptStatus(script: GoogleScriptStatus) {
        state.script = script;
      },
      clearError() {
        if (state.signIn.status === 'failed') state.signIn = { status: 'idle' };
      },
      /**
       * Reads the account from the credential, signs in (POST /auth/google) and stores the session
       * in local storage; an unknown account (404) asks for a Google registration instead.
       */
      async signInWithCredential(credential: string | undefined): Promise<GoogleSignInOutcome> {
        if (state.signIn.status === 'signing-in') return { outcome: 'failed', message: '' };
        if (!credential) return fail(GOOGLE_SCREEN_MESSAGES.popup);
        const account = readGoogleAccount(credential);
        if (!account) return fail(GOOGLE_DATA_MISSING);
        state.signIn = { status: 'signing-in' };
        try {
          const answer = await deps.call({
            googleId: account.sub,
            email: account.email,
            name: account.givenName,
            lastName: account.familyName,
            picture: account.picture,
            credential,
          });
          if ('secondStepRequired' in answer) {
            state.signIn = { status: 'idle' };
            return { outcome: 'second-step', challenge: answer };
          }
          const session = answer;
          deps.storage.save({ token: session.token, user: session.user, area: 'local' });
          state.signIn = { status: 'idle' };
          return { outcome: 'signed-in', session };
        } catch (error) {
          if (error instanceof GoogleSignInError && error.status === 404) {
            state.signIn = { status: 'idle' };
            return {
              outcome: 'needs-registration',
              data: {
                sub: account.sub,
                email: account.email,
                firstName: account.givenName,
                lastName: account.familyName,
                picture: account.picture,
                credential,
              },
            };
          }
          return fail(googleSignInScreenMessage(error));
        }
      },
    },
  };
}

export type GoogleSignInStore = ReturnType<typeof createGoogleSignInStore>;

/** The app's store behind <GoogleSignInButton/>. */
export const googleSignIn: GoogleSignInStore = createGoogleSignInStore({
  call: (body) => callGoogleSignIn(body),
  storage: tokenStorage,
});

/** Says why the user lands on /register/google (spec 000 §8, 404 with Google data). */
export function announceNotLinked(): void {
  toast.info(GOOGLE_SCREEN_MESSAGES.notLinked);
}
