import { useNavigate, useRouterState, useSearch } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import * as v from 'valibot';
import { isSafeReturnPath } from '#shared/routes';
import { type SecondStepChallenge, SecondStepChallengeSchema } from '#shared/security/security-schemas';
import { adoptSignedInSession } from '../features/auth/adopt-session.ts';
import { LoginScreen } from '../features/auth/login-screen.tsx';
import { GoogleSignInButton } from '../features/google-sign-in/index.ts';

// Shown only under a refused sign-in of a suspended or banned account: loaded then, so its appeal
// form and the moderation API stay out of the JavaScript every visitor of /login loads (QUALITY 28).
const RestrictedAccountPanel = lazy(() =>
  import('../features/moderation/restricted-account-panel.tsx').then((module) => ({
    default: module.RestrictedAccountPanel,
  })),
);

/** /login?error=token_missing: a token was expected but absent (spec 000 §2, §7). */
const TOKEN_MISSING_NOTICE = 'No hemos encontrado tu sesión. Por favor, inicia sesión de nuevo.';

/** The login screen, at /login and at / for signed-out visitors (spec 000 §2). */
export function LoginPage() {
  const navigate = useNavigate();
  // Shared by / and /login, so the search is read loosely; /login validates it.
  const search = useSearch({ strict: false }) as { error?: string; redirect?: string };
  // The page a signed-out person asked for (the 401 page passes it on, decision 0044), else /home.
  const returnTo = search.redirect !== undefined && isSafeReturnPath(search.redirect) ? search.redirect : undefined;
  const goHome = () =>
    void (returnTo ? navigate({ href: returnTo, replace: true }) : navigate({ to: '/home', replace: true }));
  // A Google sign-in that needs its second step: from this page's button, or handed over by another page's.
  const handedOver = useRouterState({ select: (state) => state.location.state.secondStep });
  const [googleSecondStep, setGoogleSecondStep] = useState<SecondStepChallenge | undefined>(undefined);
  const pendingSecondStep = googleSecondStep ?? (v.is(SecondStepChallengeSchema, handedOver) ? handedOver : undefined);
  return (
    <LoginScreen
      notice={search.error === 'token_missing' ? TOKEN_MISSING_NOTICE : undefined}
      pendingSecondStep={pendingSecondStep}
      // The Google slot under 'O continúa con' (features/google-sign-in); its script loads once the
      // form is on screen, not behind a phone's demo preview (#19 §4).
      alternativeSignIn={(isFormOnScreen) => (
        <GoogleSignInButton
          isDeferred={!isFormOnScreen}
          onSignedIn={(session) => void adoptSignedInSession(session).finally(goHome)}
          onSecondStep={setGoogleSecondStep}
        />
      )}
      // A suspended or banned account: why, and its one appeal (features/moderation).
      renderRestricted={(restriction) => (
        <Suspense fallback={null}>
          <RestrictedAccountPanel restriction={restriction} />
        </Suspense>
      )}
      onSignedIn={goHome}
      onTokenMissing={() => void navigate({ to: '/login', search: { error: 'token_missing' }, replace: true })}
    />
  );
}
