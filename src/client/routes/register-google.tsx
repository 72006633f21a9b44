import { Navigate, useRouterState } from '@tanstack/react-router';
import { useState } from 'react';
import { GoogleRegistrationModal, readGoogleRegistrationData } from '../features/registration/index.ts';
import { usePageTitle } from '../ui/use-page-title.ts';

/**
 * Completing a Google registration (spec 000 §2): the Google data arrives in the navigation state
 * from the Google button; without it (a reload in another tab, a typed address) back to /register.
 */
export function RegisterGooglePage() {
  usePageTitle('Registro con Google');
  const historyState = useRouterState({ select: (state) => state.location.state });
  // Read once: while the app navigates on to /home, the pending location carries no Google data,
  // and this page must not answer that with a redirect to /register.
  const [data] = useState(() => readGoogleRegistrationData(historyState));
  if (!data) return <Navigate to="/register" replace />;
  return (
    <>
      <header className="flex flex-col items-center text-center lg:items-start lg:text-left">
        <h1 className="text-balance text-3xl font-extrabold tracking-tight text-stone-900 dark:text-white">
          Registro con Google
        </h1>
        <p className="mt-2 text-base text-stone-600 dark:text-stone-300">Estás a un paso de empezar a entrenar.</p>
      </header>
      <GoogleRegistrationModal data={data} />
    </>
  );
}
