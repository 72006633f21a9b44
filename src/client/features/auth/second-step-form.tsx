import { type FormEvent, useEffect, useId, useRef } from 'react';
import { useSnapshot } from 'valtio';
import { REMEMBER_DEVICE_DAYS } from '#shared/security/security-schemas';
import { Button } from '../../ui/button.tsx';
import { FormAlert } from '../../ui/form-alert.tsx';
import { ArrowLeftIcon, InfoIcon, ShieldCheckIcon } from '../../ui/icons.tsx';
import { TextField } from '../../ui/text-field.tsx';
import type { SecondStepStore } from './second-step-store.ts';

const INTRO = {
  totp: 'Abre tu aplicación de autenticación e introduce el código de 6 dígitos que muestra para Entreno.',
  recovery:
    'Introduce uno de los códigos de recuperación que guardaste al activar la verificación. Cada código sirve una sola vez.',
  sms: 'Introduce el código de 6 dígitos que te hemos enviado por SMS.',
} as const;

const linkButton =
  'rounded text-left text-[0.9375rem] font-semibold text-brand-800 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600 disabled:opacity-60 dark:text-brand-300';

/** The second step of a sign-in (docs/decisions/0032): a code, another way to get one, "Recordar este dispositivo". */
export function SecondStepForm({
  store,
  isTitleMain,
  onSignedIn,
}: {
  store: SecondStepStore;
  isTitleMain: boolean;
  onSignedIn(): void;
}) {
  const snap = useSnapshot(store.state, { sync: true });
  const codeRef = useRef<HTMLInputElement>(null);
  const rememberId = useId();
  const Title = isTitleMain ? 'h1' : 'h2';
  const challenge = snap.challenge;
  const isSubmitting = snap.status.status === 'submitting';

  // The code field takes the focus when the step opens and when the way changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each change of method
  useEffect(() => codeRef.current?.focus(), [snap.method]);

  if (!challenge) return null;
  const canSms = challenge.methods.includes('sms');

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const outcome = await store.submit();
    if (outcome === 'signed-in') onSignedIn();
    else codeRef.current?.focus();
  };

  return (
    <div className="flex flex-col gap-6">
      <div>
        <Title className="text-balance text-3xl font-extrabold tracking-tight text-stone-900 sm:text-4xl dark:text-white">
          Verificación en dos pasos
        </Title>
        <p className="mt-2 text-base text-stone-600 dark:text-stone-300">{INTRO[snap.method]}</p>
      </div>

      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="Verificación en dos pasos">
        <TextField
          ref={codeRef}
          label={snap.method === 'recovery' ? 'Código de recuperación' : 'Código de 6 dígitos'}
          name="code"
          autoComplete="one-time-code"
          inputMode={snap.method === 'recovery' ? 'text' : 'numeric'}
          autoCapitalize="none"
          spellCheck={false}
          maxLength={32}
          placeholder={snap.method === 'recovery' ? 'xxxxx-xxxxx' : '123456'}
          value={snap.code}
          onChange={(event) => store.setCode(event.target.value)}
        />

        <label
          htmlFor={rememberId}
          className="-ml-1 inline-flex cursor-pointer select-none items-center gap-2.5 rounded-lg py-1 pl-1 pr-2 text-[0.9375rem] font-medium text-stone-800 dark:text-stone-200"
        >
          <input
            id={rememberId}
            type="checkbox"
            name="rememberDevice"
            checked={snap.rememberDevice}
            onChange={(event) => store.setRememberDevice(event.target.checked)}
            className="size-4.5 cursor-pointer rounded accent-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 dark:accent-brand-500"
          />
          Recordar este dispositivo durante {REMEMBER_DEVICE_DAYS} días
        </label>

        <div aria-live="polite" className="empty:hidden">
          {snap.status.status === 'sent' && (
            <p className="flex items-start gap-2.5 rounded-2xl bg-sky-50 px-4 py-3 text-sm font-medium text-sky-900 ring-1 ring-inset ring-sky-200 dark:bg-sky-500/10 dark:text-sky-100 dark:ring-sky-400/25">
              <InfoIcon className="mt-0.5 size-4.5 shrink-0" />
              {snap.status.message} {challenge.phoneHint ? `(${challenge.phoneHint})` : ''}
            </p>
          )}
        </div>
        <FormAlert message={snap.status.status === 'error' ? snap.status.message : null} />

        <Button
          type="submit"
          size="lg"
          isFullWidth
          isLoading={isSubmitting}
          loadingText="Verificando..."
          iconEnd={<ShieldCheckIcon className="size-5" />}
        >
          Verificar
        </Button>
      </form>

      <div className="flex flex-col items-start gap-3">
        <p className="text-sm font-medium text-stone-600 dark:text-stone-400">¿No puedes usar tu aplicación?</p>
        {snap.method !== 'totp' && (
          <button type="button" className={linkButton} onClick={() => store.setMethod('totp')}>
            Usar la aplicación de autenticación
          </button>
        )}
        {snap.method !== 'recovery' && (
          <button type="button" className={linkButton} onClick={() => store.setMethod('recovery')}>
            Usar un código de recuperación
          </button>
        )}
        {canSms && (
          <button
            type="button"
            className={linkButton}
            disabled={snap.status.status === 'sending'}
            onClick={() => void store.sendSms()}
          >
            {snap.method === 'sms' ? 'Enviar otro código por SMS' : 'Enviarme un código por SMS'}
            {challenge.phoneHint ? ` al ${challenge.phoneHint}` : ''}
          </button>
        )}
      </div>

      <Button variant="ghost" onClick={() => store.cancel()} iconStart={<ArrowLeftIcon className="size-4.5" />}>
        Volver al inicio de sesión
      </Button>
    </div>
  );
}
