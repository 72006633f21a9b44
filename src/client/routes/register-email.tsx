import { RegistrationWizard } from '../features/registration/index.ts';

/** The e-mail registration wizard (spec 000 §2): five labelled steps and the success step. */
export function RegisterEmailPage() {
  return <RegistrationWizard />;
}
