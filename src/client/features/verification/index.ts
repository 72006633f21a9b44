/** Profile verification (docs/decisions/0034): the settings row and dialog, and the console's queue. */
export { VerificationQueue } from './verification-queue.tsx';
export { VerifyProfile } from './verify-profile.tsx';
