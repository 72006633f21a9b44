import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { useSnapshot } from 'valtio';
import { PHONE_COUNTRY_PREFIX } from '#shared/auth/auth-constants';
import { formatSpanishPhone } from '#shared/auth/phone';
import { tokenStorage } from '../../services/token-storage.ts';
import { Button } from '../../ui/button.tsx';
import { cx } from '../../ui/cx.ts';
import { Dialog } from '../../ui/dialog.tsx';
import { AlertCircleIcon, ArrowLeftIcon, ArrowRightIcon, CheckIcon } from '../../ui/icons.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { CodeInput, type CodeInputHandle } from './code-input.tsx';
import { CountdownAnnouncer } from './countdown-announcer.tsx';
import type { GoogleRegistrationData } from './google-registration-data.ts';
import { googleRegistration, limitMessage } from './google-registration-store.ts';
import { useSecondsUntil } from './use-countdown.ts';
import { PHONE_FIELD_MAX_LENGTH } from './phone-field.ts';
import { CodeError, PhoneHintText, ResendCode } from './wizard-parts.tsx';
import { WizardProgress } from './wizard-progress.tsx';

const { actions } = googleRegistration;

const STEPS = [
  { step: 1, label: 'Teléfono' },
  { step: 2, label: 'Verificación' },
] as const;

/** Spec 000 §2: the app opens from the stored user and token (local or session storage). */
const hasStoredSession = () => tokenStorage.readToken() !== null && tokenStorage.readUser() !== null;

/** How long the success screen stays before the app opens (not in the spec). */
const SUCCESS_REDIRECT_MS = 2000;

/**
 * Completing a registration with Google (spec 000 §2, §4): a modal with the phone (step 1), the SMS
 * code (step 2) and success, after which the stored session opens /home (or /login without one).
 */
export function GoogleRegistrationModal({ data }: { data: GoogleRegistrationData }) {
  const navigate = useNavigate();
  const { step, request } = useSnapshot(googleRegistration.state);
  const isBusy = request.status === 'busy';
  const bodyRef = useRef<HTMLDivElement>(null);
  const previousStep = useRef(step);

  useEffect(() => {
    actions.start(data);
  }, [data]);

  useEffect(() => {
    if (previousStep.current === step) return;
    previousStep.current = step;
    const target = bodyRef.current?.querySelector<HTMLElement>('[data-autofocus]');
    target?.focus();
  }, [step]);

  useEffect(() => {
    if (step !== 'success') return;
    const timer = setTimeout(() => {
      void navigate({ to: hasStoredSession() ? '/home' : '/login', replace: true });
    }, SUCCESS_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [step, navigate]);

  const close = () => {
    if (isBusy || step === 'success') return;
    void navigate({ to: '/register', replace: true });
  };

  return (
    <Dialog
      open
      onClose={close}
      title={step === 'success' ? '¡Registro completado!' : 'Completa tu registro'}
      description={step === 'success' ? undefined : 'Solo falta verificar tu teléfono para crear tu cuenta.'}
      hasCloseButton={step !== 'success'}
    >
      <div ref={bodyRef} className="flex flex-col gap-5">
        {step !== 'success' && (
          <>
            <AccountChip data={data} />
            <WizardProgress steps={STEPS} current={step === 'phone' ? 1 : 2} label="Progreso del registro con Google" />
          </>
        )}
        {step === 'phone' && <PhoneStep />}
        {step === 'code' && <CodeStep />}
        {step === 'success' && <SuccessStep name={data.firstName} />}
      </div>
    </Dialog>
  );
}

function AccountChip({ data }: { data: GoogleRegistrationData }) {
  const fullName = [data.firstName, data.lastName].filter(Boolean).join(' ');
  const initial = (data.firstName || data.email).charAt(0).toUpperCase();
  return (
    <div className="flex items-center gap-3 rounded-2xl bg-stone-50 p-3 ring-1 ring-inset ring-stone-900/6 dark:bg-stone-950/60 dark:ring-white/8">
      <span
        aria-hidden="true"
        className="grid size-10 shrink-0 place-items-center rounded-full bg-gradient-to-br from-brand-400 to-brand-700 text-base font-bold text-white"
      >
        {initial}
      </span>
      <span className="min-w-0">
        <span className="block truncate font-semibold text-stone-900 dark:text-white">{fullName}</span>
        <span className="block truncate text-sm text-stone-600 dark:text-stone-400">{data.email}</span>
      </span>
    </div>
  );
}

function Navigation({ forward, isBackDisabled }: { forward: React.ReactNode; isBackDisabled: boolean }) {
  return (
    <div className="flex items-center justify-between gap-3 pt-1">
      <Button
        variant="secondary"
        onClick={actions.goBack}
        disabled={isBackDisabled}
        iconStart={<ArrowLeftIcon className="size-4.5" />}
      >
        Atrás
      </Button>
      {forward}
    </div>
  );
}

function PhoneStep() {
  const { phone, phoneError, request } = useSnapshot(googleRegistration.state);
  const isSending = request.status === 'busy' && request.action === 'send-code';
  const limitSeconds = useSecondsUntil(phoneError.kind === 'limit' ? phoneError.until : null);
  const isLimited = phoneError.kind === 'limit' && limitSeconds > 0;

  useEffect(() => {
    if (phoneError.kind === 'limit' && limitSeconds === 0) actions.clearExpiredLimit();
  }, [phoneError.kind, limitSeconds]);

  const fieldError =
    phoneError.kind === 'invalid' ? phoneError.message : phoneError.kind === 'blocked' ? phoneError.message : undefined;
  const alert = phoneError.kind === 'other' ? phoneError.message : isLimited ? limitMessage(limitSeconds) : undefined;

  return (
    <form
      noValidate
      className="flex flex-col gap-5"
      onSubmit={(event) => {
        event.preventDefault();
        void actions.sendCode();
      }}
    >
      <TextField
        label="Teléfono"
        name="phone"
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        prefix={PHONE_COUNTRY_PREFIX}
        placeholder="612 345 678"
        maxLength={PHONE_FIELD_MAX_LENGTH}
        value={phone}
        error={fieldError}
        hint={
          fieldError ? undefined : (
            <PhoneHintText typed={phone} emptyHint="Te enviaremos un código por SMS. Solo números de España (+34)." />
          )
        }
        onChange={(event) => actions.setPhone(event.target.value)}
        data-autofocus
      />
      <div aria-live="assertive" aria-atomic="true">
        {fieldError && <span className="sr-only">{fieldError}</span>}
        {phoneError.kind === 'other' && <Alert message={phoneError.message} />}
      </div>
      {isLimited && alert && (
        <div>
          <Alert message={alert} />
          <CountdownAnnouncer
            secondsLeft={limitSeconds}
            running={(seconds) => `Podrás solicitar un nuevo código en ${seconds} segundos`}
            done="Ya puedes solicitar un nuevo código"
          />
        </div>
      )}
      <Navigation
        isBackDisabled
        forward={
          <Button
            type="submit"
            isLoading={isSending}
            loadingText="Enviando código..."
            disabled={isLimited}
            iconEnd={<ArrowRightIcon className="size-4.5" />}
            className="min-w-36"
          >
            Enviar código
          </Button>
        }
      />
    </form>
  );
}

function CodeStep() {
  const { phoneDigits, code, codeError, codeResets, request, resendAvailableAt } = useSnapshot(
    googleRegistration.state,
  );
  const codeRef = useRef<CodeInputHandle>(null);
  const secondsLeft = useSecondsUntil(resendAvailableAt);
  const isBusy = request.status === 'busy';
  const isVerifying = request.status === 'busy' && request.action === 'verify-code';
  const isResending = request.status === 'busy' && request.action === 'resend-code';
  const isComplete = code.every((digit) => digit !== '');
  const errorId = 'google-code-error';

  // Spec 000 §5: on error the boxes clear and focus returns to the first.
  useEffect(() => {
    if (codeResets > 0) codeRef.current?.focus(0);
  }, [codeResets]);

  return (
    <form
      noValidate
      className="flex flex-col gap-5"
      onSubmit={(event) => {
        event.preventDefault();
        void actions.verifyCode();
      }}
    >
      <p className="text-[0.9375rem] leading-relaxed text-stone-600 dark:text-stone-300">
        Introduce el código de 6 dígitos que hemos enviado al{' '}
        <span className="whitespace-nowrap font-semibold text-stone-900 dark:text-white">
          {formatSpanishPhone(`${PHONE_COUNTRY_PREFIX}${phoneDigits}`)}
        </span>
        .
      </p>
      <div className="flex flex-col gap-2">
        <CodeInput
          ref={codeRef}
          label="Código de verificación"
          digits={code}
          onChange={actions.setCode}
          hasError={Boolean(codeError)}
          errorId={codeError ? errorId : undefined}
          disabled={isVerifying}
          isFocusTarget
        />
        <div aria-live="assertive" aria-atomic="true">
          <CodeError id={errorId} message={codeError} />
        </div>
      </div>
      <ResendCode secondsLeft={secondsLeft} isResending={isResending} onResend={() => void actions.resendCode()} />
      <Navigation
        isBackDisabled={isBusy}
        forward={
          <Button
            type="submit"
            isLoading={isVerifying}
            loadingText="Verificando..."
            disabled={!isComplete || isResending}
            iconEnd={<ArrowRightIcon className="size-4.5" />}
            className="min-w-36"
          >
            Verificar
          </Button>
        }
      />
    </form>
  );
}

function Alert({ message }: { message: string }) {
  return (
    <p className="flex items-start gap-2.5 whitespace-pre-line rounded-2xl bg-red-50 p-3.5 text-sm font-medium leading-relaxed text-red-800 ring-1 ring-inset ring-red-200 dark:bg-red-500/10 dark:text-red-300 dark:ring-red-500/25">
      <AlertCircleIcon className="mt-0.5 size-4.5 shrink-0" />
      <span>{message}</span>
    </p>
  );
}

function SuccessStep({ name }: { name: string }) {
  const navigate = useNavigate();
  const openApp = () => void navigate({ to: hasStoredSession() ? '/home' : '/login', replace: true });
  return (
    <div className="flex flex-col items-center gap-4 py-4 text-center">
      <span
        aria-hidden="true"
        className={cx(
          'grid size-16 place-items-center rounded-full bg-green-600 text-white dark:bg-green-500 dark:text-stone-950',
        )}
      >
        <CheckIcon className="size-8" strokeWidth={3} />
      </span>
      <p role="status" className="text-balance text-[0.9375rem] leading-relaxed text-stone-700 dark:text-stone-200">
        {name ? `Te damos la bienvenida a Entreno, ${name}. ` : 'Te damos la bienvenida a Entreno. '}
        Tu cuenta está lista y te llevamos a la aplicación...
      </p>
      <Button onClick={openApp} isFullWidth iconEnd={<ArrowRightIcon className="size-4.5" />} data-autofocus>
        Continuar
      </Button>
    </div>
  );
}
