import { ForgotPasswordScreen } from '../features/auth/forgot-password-screen.tsx';

/** Request a password reset e-mail (spec 000 §2). */
export function ForgotPasswordPage() {
  return <ForgotPasswordScreen />;
}
