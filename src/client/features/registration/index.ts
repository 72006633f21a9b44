/** Registration (spec 000 §2, §4, §5): the e-mail wizard, the Google registration modal, the terms notice. */
export { GoogleRegistrationModal } from './google-registration-modal.tsx';
export { type GoogleRegistrationData, readGoogleRegistrationData } from './google-registration-data.ts';
export { RegistrationWizard } from './registration-wizard.tsx';
export { TermsNotice } from './terms-notice.tsx';
