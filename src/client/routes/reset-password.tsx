import { useNavigate, useSearch } from '@tanstack/react-router';
import { ResetPasswordScreen } from '../features/auth/reset-password-screen.tsx';

/** Set a new password from the e-mailed link, /reset-password?token&email (spec 000 §2). */
export function ResetPasswordPage() {
  const { token, email } = useSearch({ from: '/auth/reset-password' });
  const navigate = useNavigate();
  return (
    <ResetPasswordScreen
      // A new link in the same tab starts afresh.
      key={`${token ?? ''}|${email ?? ''}`}
      token={token}
      email={email}
      onDone={() => void navigate({ to: '/login', replace: true })}
    />
  );
}
