import { useEffect, useRef, useState } from 'react';
import type { LoginResponse } from '#shared/auth/auth-schemas';
import {
  arePasskeysSupported,
  getPasskey,
  isPasskeyAutofillSupported,
  isPasskeyCancelled,
} from '../../services/passkeys.ts';
import { Button } from '../../ui/button.tsx';
import { AlertCircleIcon, KeyIcon } from '../../ui/icons.tsx';
import { loginErrorMessage } from './login-store.ts';
import { passkeySignIn, passkeySignInOptions } from './second-step-api.ts';

export const PASSKEY_UNSUPPORTED =
  'Este navegador no admite llaves de acceso. Inicia sesión con tu email y contraseña.';

type SignIn = (input: { token: string; user: LoginResponse['user']; area: 'local' | 'session' }) => Promise<unknown>;

/** A label that takes two lines where one does not fit (the button keeps its height). */
const WRAPPING_LABEL = 'min-w-0 whitespace-normal text-center leading-tight';

/** Options → the browser's passkey prompt → the session. */
async function signInWithPasskey(rememberMe: boolean, signIn: SignIn): Promise<void> {
  const { challengeId, options } = await passkeySignInOptions();
  const response = await getPasskey(options);
  const answer = await passkeySignIn({ challengeId, response, rememberMe });
  await signIn({ token: answer.token, user: answer.user, area: rememberMe ? 'local' : 'session' });
}

/**
 * "Entrar con llave de acceso" (docs/decisions/0032), and the same passkeys offered in
 * the e-mail field's autofill where the browser can (conditional mediation, started after mount).
 */
export function PasskeySignIn({
  rememberMe,
  signIn,
  onSignedIn,
}: {
  rememberMe: boolean;
  signIn: SignIn;
  onSignedIn(): void;
}) {
  // The autofill request starts at mount; "Recuérdame" is read when it completes.
  const rememberRef = useRef(rememberMe);
  rememberRef.current = rememberMe;
  const [status, setStatus] = useState<{ status: 'idle' | 'waiting' } | { status: 'error'; message: string }>({
    status: 'idle',
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: started once per visit of the form
  useEffect(() => {
    let isActive = true;
    void (async () => {
      if (!(await isPasskeyAutofillSupported()) || !isActive) return;
      // Nothing shown when the offer cannot even start (offline, throttled): the button still works.
      const offer = await passkeySignInOptions().catch(() => undefined);
      if (!offer || !isActive) return;
      // The browser may end the offer for reasons of its own (another request, no passkeys): silent.
      const response = await getPasskey(offer.options, true).catch(() => undefined);
      if (response === undefined || !isActive) return;
      try {
        const remember = rememberRef.current;
        const answer = await passkeySignIn({ challengeId: offer.challengeId, response, rememberMe: remember });
        await signIn({ token: answer.token, user: answer.user, area: remember ? 'local' : 'session' });
        if (isActive) onSignedIn();
      } catch (error) {
        // The person chose a passkey: a refusal is shown.
        if (isActive) setStatus({ status: 'error', message: loginErrorMessage(error) });
      }
    })();
    return () => {
      isActive = false;
    };
  }, []);

  const onClick = async () => {
    if (!arePasskeysSupported()) {
      setStatus({ status: 'error', message: PASSKEY_UNSUPPORTED });
      return;
    }
    setStatus({ status: 'waiting' });
    try {
      await signInWithPasskey(rememberMe, signIn);
      onSignedIn();
    } catch (error) {
      setStatus(
        isPasskeyCancelled(error) ? { status: 'idle' } : { status: 'error', message: loginErrorMessage(error) },
      );
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <Button
        variant="secondary"
        size="lg"
        isFullWidth
        isLoading={status.status === 'waiting'}
        // Issue #34: «Iniciar sesión con una llave de acceso» ran past the button at 390 px:
        // a shorter label, one line on phones, wrapping rather than overflowing where even that is too wide.
        loadingText={<span className={WRAPPING_LABEL}>Esperando a tu llave de acceso...</span>}
        iconStart={<KeyIcon className="size-5 shrink-0" />}
        onClick={() => void onClick()}
      >
        <span className={WRAPPING_LABEL}>Entrar con llave de acceso</span>
      </Button>
      <div aria-live="assertive" className="empty:hidden">
        {status.status === 'error' && (
          <p
            role="alert"
            className="flex items-start gap-2.5 rounded-2xl bg-red-50 px-4 py-3 text-sm font-medium text-red-800 ring-1 ring-inset ring-red-200 dark:bg-red-500/10 dark:text-red-200 dark:ring-red-400/25"
          >
            <AlertCircleIcon className="mt-0.5 size-4.5 shrink-0" />
            {status.message}
          </p>
        )}
      </div>
    </div>
  );
}
