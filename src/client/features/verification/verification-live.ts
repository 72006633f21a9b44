import { onSignOut } from '../../services/session.ts';
import { verificationApi } from './verification-api.ts';
import { createVerificationStore } from './verification-store.ts';

/** The app's verification store (the settings row and its dialog). */
export const verificationStore = createVerificationStore({ api: verificationApi });

onSignOut(() => verificationStore.reset());
