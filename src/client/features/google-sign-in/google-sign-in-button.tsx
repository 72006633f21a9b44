import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { useSnapshot } from 'valtio';
import type { SecondStepChallenge } from '#shared/security/security-schemas';
import { cx } from '../../ui/cx.ts';
import { AlertCircleIcon } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { type GoogleButtonText, type GoogleIdentityApi, loadGoogleIdentity } from './google-identity-script.ts';
import type { GoogleSession } from './google-sign-in-call.ts';
import { announceNotLinked, googleSignIn } from './google-sign-in-store.ts';

export type GoogleSignInButtonProps = {
  /** Google's wording: 'continue_with' ("Continuar con Google", default) or 'signup_with' / 'signin_with'. */
  text?: GoogleButtonText;
  /**
   * Runs after the session is stored (local storage) instead of the default navigation to /home,
   * e.g. for a session service that opens the real-time connection first.
   */
  onSignedIn?: (session: GoogleSession) => void;
  /** Two-step is on: the login screen asks for the code (docs/decisions/0032). */
  onSecondStep?: (challenge: SecondStepChallenge) => void;
  /** Also told of every error message the button shows. */
  onError?: (message: string) => void;
  className?: string;
  /**
   * While true the button keeps its placeholder and Google's script is not loaded yet: the login
   * screen defers it until its form is on screen (a phone's first view is the demo preview).
   */
  isDeferred?: boolean;
};

/** Google's documented limits for the rendered button's width. */
const MIN_WIDTH = 200;
const MAX_WIDTH = 400;

const isDark = () => document.documentElement.classList.contains('dark');

/**
 * "Continuar con Google" (spec 000 §2, §4): loads Identity Services from the address the server
 * gives (GET /auth/google/config), renders Google's button, and on a credential signs in
 * (POST /auth/google, retried) and goes to /home, or to /register/google when no account is linked.
 * A script that fails to load is only logged (spec 000 §8) and the button stays hidden.
 */
export function GoogleSignInButton({
  text = 'continue_with',
  onSignedIn,
  onSecondStep,
  onError,
  className,
  isDeferred = false,
}: GoogleSignInButtonProps) {
  const { script, signIn } = useSnapshot(googleSignIn.state);
  const navigate = useNavigate();
  const hostRef = useRef<HTMLDivElement>(null);
  // The GIS callback is registered once; it always reaches the latest props through this ref.
  const handlers = useRef({ onSignedIn, onSecondStep, onError, navigate });
  handlers.current = { onSignedIn, onSecondStep, onError, navigate };

  useEffect(() => {
    if (isDeferred) return;
    let isMounted = true;
    let observer: MutationObserver | undefined;
    let resizeObserver: ResizeObserver | undefined;
    googleSignIn.actions.clearError();
    googleSignIn.actions.setScriptStatus({ status: 'loading' });

    const handleCredential = async (credential: string | undefined) => {
      if (!isMounted) return;
      const result = await googleSignIn.actions.signInWithCredential(credential);
      if (!isMounted) return;
      const current = handlers.current;
      switch (result.outcome) {
        case 'signed-in':
          if (current.onSignedIn) current.onSignedIn(result.session);
          else void current.navigate({ to: '/home' });
          break;
        case 'second-step':
          if (current.onSecondStep) current.onSecondStep(result.challenge);
          else void current.navigate({ to: '/login', state: { secondStep: result.challenge } });
          break;
        case 'needs-registration':
          announceNotLinked();
          void current.navigate({ to: '/register/google', state: { googleData: result.data } });
          break;
        case 'failed':
          if (result.message) current.onError?.(result.message);
          break;
      }
    };

    const render = (api: GoogleIdentityApi) => {
      const host = hostRef.current;
      if (!host) return;
      const width = Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, host.clientWidth)));
      host.replaceChildren();
      api.renderButton(host, {
        type: 'standard',
        theme: isDark() ? 'filled_black' : 'outline',
        size: 'large',
        text,
        shape: 'pill',
        logo_alignment: 'center',
        width,
        locale: 'es',
      });
    };

    loadGoogleIdentity()
      .then(({ api, clientId }) => {
        if (!isMounted) return;
        api.initialize({
          client_id: clientId,
          callback: (response) => void handleCredential(response.credential),
          ux_mode: 'popup',
          context: text === 'signup_with' ? 'signup' : 'signin',
        });
        googleSignIn.actions.setScriptStatus({ status: 'ready' });
        render(api);
        // Follow the theme and the available width, as Google's own button cannot.
        observer = new MutationObserver(() => render(api));
        observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
        let lastWidth = hostRef.current?.clientWidth ?? 0;
        resizeObserver = new ResizeObserver(([entry]) => {
          const width = Math.round(entry?.contentRect.width ?? 0);
          if (Math.abs(width - lastWidth) < 8) return;
          lastWidth = width;
          render(api);
        });
        if (hostRef.current) resizeObserver.observe(hostRef.current);
      })
      .catch((error: unknown) => {
        // Spec 000 §8: a script that cannot load is logged only.
        console.error('Google sign-in is unavailable', error);
        if (isMounted) googleSignIn.actions.setScriptStatus({ status: 'unavailable' });
      });

    return () => {
      isMounted = false;
      observer?.disconnect();
      resizeObserver?.disconnect();
    };
  }, [text, isDeferred]);

  if (script.status === 'unavailable') return null;
  const isSigningIn = signIn.status === 'signing-in';

  return (
    <div className={cx('flex flex-col', className)}>
      {/*
        A box of fixed height: whatever Google's script draws into it, and whenever (an unstyled
        button before its stylesheet arrives, a taller frame), nothing around it moves; the button
        sits at its top, so a late style that changes only its height does not move it either.
        Clipped to the box, with room for a focus ring.
      */}
      <div className="relative h-11" aria-busy={script.status === 'loading' || isSigningIn || undefined}>
        {script.status === 'loading' && (
          <div
            aria-hidden="true"
            className="absolute inset-0 mx-auto h-11 max-w-[400px] animate-pulse rounded-full bg-stone-200/80 motion-reduce:animate-none dark:bg-stone-800"
          />
        )}
        <div
          ref={hostRef}
          className={cx(
            'flex h-11 items-start justify-center overflow-clip [overflow-clip-margin:0.25rem]',
            isSigningIn && 'pointer-events-none',
          )}
        />
        {isSigningIn && (
          <div className="absolute inset-0 mx-auto flex max-w-[400px] items-center justify-center gap-2.5 rounded-full bg-white/92 text-sm font-semibold text-stone-800 ring-1 ring-stone-300 dark:bg-stone-900/95 dark:text-stone-100 dark:ring-stone-700">
            <Spinner size="sm" label={null} />
            <span role="status">Conectando con Google...</span>
          </div>
        )}
      </div>
      <div aria-live="assertive" aria-atomic="true">
        {signIn.status === 'failed' && (
          <p className="mt-2 flex items-start justify-center gap-1.5 text-center text-sm font-medium text-red-700 dark:text-red-400">
            <AlertCircleIcon className="mt-0.5 size-4 shrink-0" />
            <span>{signIn.message}</span>
          </p>
        )}
      </div>
    </div>
  );
}
