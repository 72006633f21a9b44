import type { SecondStepChallenge } from '#shared/security/security-schemas';

/**
 * The Google data handed to /register/google in the navigation state (spec 000 §2). The credential
 * goes along because the server verifies it again when the account is created (decision 0004).
 */
export type GoogleRegistrationData = {
  sub: string;
  email: string;
  firstName: string;
  lastName: string;
  picture: string;
  credential: string;
};

declare module '@tanstack/react-router' {
  interface HistoryState {
    /** Set by the Google button when no account is linked; read (and validated) by /register/google. */
    googleData?: GoogleRegistrationData;
    /** Set by the Google button outside /login when two-step is on; read (and validated) by /login. */
    secondStep?: SecondStepChallenge;
  }
}
