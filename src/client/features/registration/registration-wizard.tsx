import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { PHONE_COUNTRY_PREFIX, PHONE_DIGITS } from '#shared/auth/auth-constants';
import { formatSpanishPhone } from '#shared/auth/phone';
import { tokenStorage } from '../../services/token-storage.ts';
import { Button } from '../../ui/button.tsx';
import { CheckIcon } from '../../ui/icons.tsx';
import { textLinkClasses } from '../../ui/link-classes.ts';
import { Spinner } from '../../ui/spinner.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { CodeInput } from './code-input.tsx';
import { isCodeComplete } from './code-input-logic.ts';
import { PasswordStrength } from '../../ui/password-strength.tsx';
import { registration } from './registration-store.ts';
import { SUCCESS_ITEMS, SUCCESS_REDIRECT_AT_MS, redirectMessage, successProgress } from './success-timeline.ts';
import { useSecondsUntil } from './use-countdown.ts';
import { formatNational, PHONE_FIELD_MAX_LENGTH } from './phone-field.ts';
import {
  CodeError,
  ForwardButton,
  FormAlert,
  PhoneHintText,
  ResendCode,
  StepForm,
  StepNavigation,
} from './wizard-parts.tsx';
import { WizardProgress } from './wizard-progress.tsx';
import { WIZARD_STEPS, type WizardStep } from './wizard-machine.ts';
import { cx } from '../../ui/cx.ts';

const { actions } = registration;

/** The e-mail registration wizard (spec 000 §2, §4, §5): five labelled steps and the success step. */
export function RegistrationWizard() {
  const { wizard, errors } = useSnapshot(registration.state);
  const step = wizard.step;
  const containerRef = useRef<HTMLDivElement>(null);
  const previousStep = useRef<WizardStep>(step);
  const stepLabel = WIZARD_STEPS.find((item) => item.step === step)?.label;
  usePageTitle(step === 6 ? 'Registro completado' : 'Registro con correo');

  useEffect(() => {
    actions.reset();
    return () => actions.reset();
  }, []);

  // Moving between steps puts focus on the new step's first field (or its heading).
  useEffect(() => {
    if (previousStep.current === step) return;
    previousStep.current = step;
    const container = containerRef.current;
    const target = container?.querySelector<HTMLElement>('[data-autofocus]') ?? container?.querySelector('h2');
    if (target instanceof HTMLElement) {
      if (target.tagName === 'H2') target.tabIndex = -1;
      target.focus();
    }
  }, [step]);

  const fieldError = errors.name ?? errors.lastName ?? errors.email ?? errors.phone ?? errors.code ?? errors.password;

  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-col items-center text-center lg:items-start lg:text-left">
        <h1 className="text-balance text-3xl font-extrabold tracking-tight text-stone-900 dark:text-white">
          {step === 6 ? '¡Ya casi está!' : 'Crea tu cuenta'}
        </h1>
        <p className="mt-2 text-base text-stone-600 dark:text-stone-300">
          {step === 6 ? 'Estamos terminando de preparar tu cuenta.' : `Paso ${step} de 5 · ${stepLabel}`}
        </p>
      </header>
      {step !== 6 && (
        <WizardProgress
          steps={WIZARD_STEPS}
          current={step}
          completed={wizard.isPhoneVerified ? [4] : []}
          label="Progreso del registro"
        />
      )}
      <div
        ref={containerRef}
        className="rounded-3xl bg-white p-5 shadow-sm ring-1 ring-stone-900/6 sm:p-7 dark:bg-stone-900 dark:ring-white/8"
      >
        {step === 1 && <NameStep />}
        {step === 2 && <EmailStep />}
        {step === 3 && <PhoneStep />}
        {step === 4 && <CodeStep />}
        {step === 5 && <PasswordStep />}
        {step === 6 && <SuccessStep />}
      </div>
      {/* Field errors are shown under each field; this reads them out as they appear. */}
      <p className="sr-only" aria-live="assertive" aria-atomic="true">
        {fieldError}
      </p>
      {step !== 6 && (
        <p className="text-center text-sm">
          <Link to="/register" className={textLinkClasses}>
            Seleccionar otro método de registro
          </Link>
        </p>
      )}
    </div>
  );
}

function NameStep() {
  const { form, errors } = useSnapshot(registration.state);
  return (
    <StepForm
      title="¿Cómo te llamas?"
      intro="Así te verán tus compañeros de entrenamiento."
      onSubmit={actions.submitName}
      footer={<StepNavigation forward={<ForwardButton />} />}
    >
      <TextField
        label="Nombre"
        name="name"
        autoComplete="given-name"
        autoCapitalize="words"
        value={form.name}
        error={errors.name}
        onChange={(event) => actions.setField('name', event.target.value)}
        data-autofocus
      />
      <TextField
        label={
          <>
            Apellidos <span className="font-normal text-stone-500 dark:text-stone-400">(opcional)</span>
          </>
        }
        name="lastName"
        autoComplete="family-name"
        autoCapitalize="words"
        value={form.lastName}
        error={errors.lastName}
        onChange={(event) => actions.setField('lastName', event.target.value)}
      />
    </StepForm>
  );
}

function EmailStep() {
  const { form, errors, request } = useSnapshot(registration.state);
  const isChecking = request.status === 'busy' && request.action === 'check-email';
  return (
    <StepForm
      title="Tu correo electrónico"
      intro="Lo usarás para iniciar sesión y para recuperar tu contraseña si la olvidas."
      onSubmit={() => void actions.submitEmail()}
      footer={
        <StepNavigation
          onBack={actions.goBack}
          isBackDisabled={isChecking}
          forward={<ForwardButton isLoading={isChecking} loadingText="Comprobando..." />}
        />
      }
    >
      <TextField
        label="Correo electrónico"
        name="email"
        type="email"
        inputMode="email"
        autoComplete="email"
        autoCapitalize="none"
        spellCheck={false}
        placeholder="nombre@ejemplo.com"
        value={form.email}
        error={errors.email}
        onChange={(event) => actions.setField('email', event.target.value)}
        data-autofocus
      />
    </StepForm>
  );
}

function PhoneStep() {
  const { form, errors, request, wizard } = useSnapshot(registration.state);
  const isSending = request.status === 'busy' && request.action === 'send-code';
  const isVerified = wizard.isPhoneVerified;
  const canSend = form.phoneDigits.length === PHONE_DIGITS;
  return (
    <StepForm
      title="Tu teléfono"
      intro={
        isVerified
          ? 'Tu número ya está verificado. Puedes continuar.'
          : 'Te enviaremos un código por SMS para comprobar que el número es tuyo.'
      }
      onSubmit={() => void actions.submitPhone()}
      footer={
        <StepNavigation
          onBack={actions.goBack}
          isBackDisabled={isSending}
          forward={
            isVerified ? (
              <ForwardButton />
            ) : (
              <Button
                type="submit"
                disabled={!canSend}
                aria-describedby={canSend ? undefined : errors.phone ? 'wizard-phone-error' : 'wizard-phone-hint'}
                isLoading={isSending}
                loadingText="Enviando código..."
                className="min-w-36"
              >
                Verificar
              </Button>
            )
          }
        />
      }
    >
      <TextField
        id="wizard-phone"
        label="Teléfono"
        name="phone"
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        prefix={PHONE_COUNTRY_PREFIX}
        placeholder="612 345 678"
        maxLength={PHONE_FIELD_MAX_LENGTH}
        value={isVerified ? formatNational(form.phoneDigits) : form.phone}
        readOnly={isVerified}
        aria-readonly={isVerified || undefined}
        error={errors.phone}
        hint={
          isVerified ? (
            <span className="inline-flex items-center gap-1.5 font-semibold text-green-700 dark:text-green-400">
              <span className="grid size-4.5 place-items-center rounded-full bg-green-600 text-white dark:bg-green-500 dark:text-stone-950">
                <CheckIcon className="size-3" strokeWidth={3} />
              </span>
              Verificado
            </span>
          ) : errors.phone ? undefined : (
            <PhoneHintText typed={form.phone} emptyHint="Solo números de España (+34), 9 dígitos." />
          )
        }
        onChange={(event) => actions.setPhone(event.target.value)}
        onBlur={actions.checkPhoneDigits}
        className={cx(isVerified && 'text-stone-600 dark:text-stone-300')}
        data-autofocus
      />
    </StepForm>
  );
}

function CodeStep() {
  const { form, errors, request, wizard, resendAvailableAt } = useSnapshot(registration.state);
  const secondsLeft = useSecondsUntil(resendAvailableAt);
  const isVerifying = request.status === 'busy' && request.action === 'verify-code';
  const isResending = request.status === 'busy' && request.action === 'resend-code';
  const errorId = 'wizard-code-error';
  return (
    <StepForm
      title="Introduce el código"
      intro={
        <>
          Te hemos enviado un código de 6 dígitos por SMS al{' '}
          <span className="whitespace-nowrap font-semibold text-stone-900 dark:text-white">
            {formatSpanishPhone(`${PHONE_COUNTRY_PREFIX}${form.phoneDigits}`)}
          </span>
          .
        </>
      }
      onSubmit={() => void actions.submitCode()}
      footer={
        <StepNavigation
          onBack={actions.goBack}
          isBackDisabled={isVerifying || isResending}
          forward={<ForwardButton isLoading={isVerifying} loadingText="Verificando..." disabled={isResending} />}
        />
      }
    >
      <div className="flex flex-col gap-2">
        <CodeInput
          label="Código de verificación"
          digits={wizard.code}
          onChange={(digits) => {
            const wasComplete = isCodeComplete(wizard.code);
            actions.setCode(digits);
            // The sixth digit goes on by itself (issue #34), as typing or autofill would expect.
            if (!wasComplete && isCodeComplete(digits) && !isVerifying && !isResending) void actions.submitCode();
          }}
          hasError={Boolean(errors.code)}
          errorId={errors.code ? errorId : undefined}
          disabled={isVerifying}
          isFocusTarget
        />
        <CodeError id={errorId} message={errors.code} />
      </div>
      <ResendCode secondsLeft={secondsLeft} isResending={isResending} onResend={() => void actions.resendCode()} />
    </StepForm>
  );
}

function PasswordStep() {
  const { form, errors, request } = useSnapshot(registration.state);
  const isRegistering = request.status === 'busy' && request.action === 'register';
  return (
    <StepForm
      title="Crea tu contraseña"
      intro="Elige una contraseña segura que no uses en otros sitios."
      onSubmit={() => void actions.submitPassword()}
      footer={
        <StepNavigation
          onBack={actions.goBack}
          isBackDisabled={isRegistering}
          forward={
            <ForwardButton isLoading={isRegistering} loadingText="Creando cuenta...">
              Crear cuenta
            </ForwardButton>
          }
        />
      }
    >
      <div className="flex flex-col gap-3">
        <TextField
          label="Contraseña"
          name="password"
          type="password"
          autoComplete="new-password"
          value={form.password}
          error={errors.password}
          onChange={(event) => actions.setField('password', event.target.value)}
          data-autofocus
        />
        <PasswordStrength password={form.password} />
      </div>
      <FormAlert message={errors.form} />
    </StepForm>
  );
}

/** Step 6: the checklist ticks, the countdown, then /home; it needs the stored token (spec 000 §2). */
function SuccessStep() {
  const navigate = useNavigate();
  const { form } = useSnapshot(registration.state);
  const [startedAt] = useState(() => Date.now());
  const [elapsed, setElapsed] = useState(0);
  const progress = successProgress(elapsed);

  useEffect(() => {
    if (!tokenStorage.readToken()) {
      void navigate({ to: '/login', search: { error: 'token_missing' }, replace: true });
      return;
    }
    const timer = setInterval(() => {
      const now = Date.now() - startedAt;
      setElapsed(now);
      if (now >= SUCCESS_REDIRECT_AT_MS) {
        clearInterval(timer);
        if (tokenStorage.readToken()) void navigate({ to: '/home', replace: true });
        else void navigate({ to: '/login', search: { error: 'token_missing' }, replace: true });
      }
    }, 100);
    return () => clearInterval(timer);
  }, [navigate, startedAt]);

  return (
    <div className="flex flex-col items-center gap-6 py-2 text-center">
      <span
        aria-hidden="true"
        className={cx(
          'grid size-16 place-items-center rounded-full transition-colors duration-500 motion-reduce:transition-none',
          progress.ticked === SUCCESS_ITEMS.length
            ? 'bg-green-600 text-white dark:bg-green-500 dark:text-stone-950'
            : 'bg-brand-50 text-brand-700 dark:bg-brand-500/15 dark:text-brand-300',
        )}
      >
        {progress.ticked === SUCCESS_ITEMS.length ? (
          <CheckIcon className="size-8" strokeWidth={3} />
        ) : (
          <Spinner size="lg" label={null} />
        )}
      </span>
      <h2 className="text-xl font-bold tracking-tight text-stone-900 dark:text-white">
        {form.name.trim() ? `¡Hola, ${form.name.trim()}!` : '¡Hola!'}
      </h2>
      <ul className="flex w-full max-w-xs flex-col gap-3 text-left" aria-label="Estado del registro">
        {SUCCESS_ITEMS.map((item, index) => {
          const isDone = index < progress.ticked;
          const isActive = index === progress.ticked;
          return (
            <li key={item} className="flex items-center gap-3">
              <span
                aria-hidden="true"
                className={cx(
                  'grid size-7 shrink-0 place-items-center rounded-full transition-colors duration-300 motion-reduce:transition-none',
                  isDone
                    ? 'bg-green-600 text-white dark:bg-green-500 dark:text-stone-950'
                    : 'bg-stone-100 text-stone-500 dark:bg-stone-800 dark:text-stone-400',
                )}
              >
                {isDone ? (
                  <CheckIcon className="size-4" strokeWidth={3} />
                ) : isActive ? (
                  <Spinner size="sm" label={null} />
                ) : null}
              </span>
              <span
                className={cx(
                  'text-[0.9375rem] font-medium',
                  isDone ? 'text-stone-900 dark:text-white' : 'text-stone-500 dark:text-stone-400',
                )}
              >
                {item}
                <span className="sr-only">{isDone ? ': hecho' : ': pendiente'}</span>
              </span>
            </li>
          );
        })}
      </ul>
      <p className="min-h-6 text-sm font-medium text-stone-700 dark:text-stone-300" role="status" aria-atomic="true">
        {progress.phase === 'countdown' && redirectMessage(progress.secondsLeft)}
        {progress.phase === 'redirecting' && 'Redirigiendo...'}
      </p>
    </div>
  );
}
