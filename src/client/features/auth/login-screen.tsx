import type { RestrictedAccount } from '#shared/moderation/moderation-schemas';
import { Link } from '@tanstack/react-router';
import { type FormEvent, type ReactNode, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { AUTH_MESSAGES } from '#shared/auth/auth-messages';
import { readLoginLocation } from '../../services/geolocation.ts';
import { isRunningInstalled } from '../../services/install-prompt.ts';
import { signIn } from '../../services/session.ts';
import { Button } from '../../ui/button.tsx';
import { cx } from '../../ui/cx.ts';
import { AlertCircleIcon, ArrowLeftIcon, InfoIcon, LogInIcon, ShieldCheckIcon } from '../../ui/icons.tsx';
import { textLinkClasses } from '../../ui/link-classes.ts';
import { Logo } from '../../ui/logo.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import type { SecondStepChallenge } from '#shared/security/security-schemas';
import { login } from './auth-api.ts';
import { LOGIN_FORM_DELAY_MS } from './demo-cycle.ts';
import { DemoFeatures, DemoPhone, ProdBadge } from './demo-preview.tsx';
import { createLoginStore, type LoginStore } from './login-store.ts';
import { useDelay, useIsWideScreen } from './login-screen-hooks.ts';
import { PasskeySignIn } from './passkey-sign-in.tsx';
import { completeSecondStep, sendSecondStepSms } from './second-step-api.ts';
import { SecondStepForm } from './second-step-form.tsx';
import { createSecondStepStore, type SecondStepStore } from './second-step-store.ts';

export type LoginScreenProps = {
  /**
   * The Google button, composed by the route (features do not import each other); told whether the
   * form is on screen, so it can wait to load Google's script until it is.
   */
  alternativeSignIn?: ReactNode | ((isFormOnScreen: boolean) => ReactNode);
  /**
   * What a suspended or banned account sees under the refusal (the appeal form of the moderation
   * feature, composed by the route).
   */
  renderRestricted?: (restriction: RestrictedAccount) => ReactNode;
  /** A notice above the form, e.g. for /login?error=token_missing. */
  notice?: string;
  /** A sign-in elsewhere (Google) that still needs its second step (docs/decisions/0032). */
  pendingSecondStep?: SecondStepChallenge;
  onSignedIn(): void;
  /** The login answer had no token (spec 000 §7): the route goes to /login?error=token_missing. */
  onTokenMissing?(): void;
};

const footerLinkClasses =
  'rounded font-medium underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-400';

function LoginForm({
  store,
  secondStep,
  alternativeSignIn,
  renderRestricted,
  notice,
  onSignedIn,
  onTokenMissing,
  emailRef,
  isTitleMain,
}: Omit<LoginScreenProps, 'onSignedIn' | 'alternativeSignIn' | 'pendingSecondStep'> & {
  alternativeSignIn?: ReactNode;
  store: LoginStore;
  secondStep: SecondStepStore;
  onSignedIn(): void;
  emailRef: RefObject<HTMLInputElement | null>;
  /** The page's h1 when the preview (with its own h1) is not beside it. */
  isTitleMain: boolean;
}) {
  const snap = useSnapshot(store.state, { sync: true });
  const passwordRef = useRef<HTMLInputElement>(null);
  const Title = isTitleMain ? 'h1' : 'h2';
  const rememberId = useId();
  const rememberHintId = useId();
  const isSubmitting = snap.status.status === 'submitting';
  const hasErrors = snap.errors.email !== undefined || snap.errors.password !== undefined;
  const isSecondStep = useSnapshot(secondStep.state).challenge !== null;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await store.submit();
    if (result.outcome === 'invalid') {
      (result.firstInvalid === 'email' ? emailRef : passwordRef).current?.focus();
    } else if (result.outcome === 'signed-in') {
      onSignedIn();
    } else if (result.outcome === 'token-missing') {
      onTokenMissing?.();
    }
  };

  if (isSecondStep) return <SecondStepForm store={secondStep} isTitleMain={isTitleMain} onSignedIn={onSignedIn} />;

  return (
    <div className="flex flex-col gap-6">
      <div>
        <Title className="text-balance text-3xl font-extrabold tracking-tight text-stone-900 sm:text-4xl dark:text-white">
          Iniciar sesión
        </Title>
        <p className="mt-2 text-base text-stone-600 dark:text-stone-300">Inicia sesión para conectar!</p>
      </div>

      {notice !== undefined && (
        <p
          role="status"
          className="flex items-start gap-2.5 rounded-2xl bg-sky-50 px-4 py-3 text-sm font-medium text-sky-900 ring-1 ring-inset ring-sky-200 dark:bg-sky-500/10 dark:text-sky-100 dark:ring-sky-400/25"
        >
          <InfoIcon className="mt-0.5 size-4.5 shrink-0" />
          {notice}
        </p>
      )}

      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="Iniciar sesión">
        <TextField
          ref={emailRef}
          label="Email"
          type="email"
          name="email"
          // Passkeys are offered in this field's suggestions where the browser can (conditional UI).
          autoComplete="username webauthn"
          inputMode="email"
          autoCapitalize="none"
          spellCheck={false}
          placeholder="tu@email.com"
          value={snap.email}
          onChange={(event) => store.setEmail(event.target.value)}
          error={snap.errors.email}
        />
        <TextField
          ref={passwordRef}
          label="Contraseña"
          type="password"
          name="password"
          autoComplete="current-password"
          placeholder="Tu contraseña"
          value={snap.password}
          onChange={(event) => store.setPassword(event.target.value)}
          error={snap.errors.password}
        />

        <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
          <label
            htmlFor={rememberId}
            className="-ml-1 inline-flex cursor-pointer select-none items-center gap-2.5 rounded-lg py-1 pl-1 pr-2 text-[0.9375rem] font-medium text-stone-800 dark:text-stone-200"
          >
            <input
              id={rememberId}
              type="checkbox"
              name="rememberMe"
              checked={snap.rememberMe}
              onChange={(event) => store.setRememberMe(event.target.checked)}
              aria-describedby={snap.rememberMe ? rememberHintId : undefined}
              className="size-4.5 cursor-pointer rounded accent-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 dark:accent-brand-500"
            />
            Recuérdame
          </label>
          <Link to="/forgot-password" className={cx(textLinkClasses, 'text-[0.9375rem]')}>
            ¿Olvidaste tu contraseña?
          </Link>
        </div>

        <div aria-live="polite" className="-mt-1 empty:hidden">
          {snap.rememberMe && (
            <p
              id={rememberHintId}
              className="flex items-start gap-2 rounded-xl bg-brand-50 px-3 py-2 text-sm text-brand-900 ring-1 ring-inset ring-brand-200/70 dark:bg-brand-500/10 dark:text-brand-100 dark:ring-brand-500/25"
            >
              <ShieldCheckIcon className="mt-0.5 size-4 shrink-0 text-brand-700 dark:text-brand-300" />
              {AUTH_MESSAGES.loginRemembered}
            </p>
          )}
        </div>

        <div aria-live="assertive" className="empty:hidden">
          {snap.status.status === 'error' && (
            <p
              role="alert"
              className="flex items-start gap-2.5 rounded-2xl bg-red-50 px-4 py-3 text-sm font-medium text-red-800 ring-1 ring-inset ring-red-200 dark:bg-red-500/10 dark:text-red-200 dark:ring-red-400/25"
            >
              <AlertCircleIcon className="mt-0.5 size-4.5 shrink-0" />
              {snap.status.message}
            </p>
          )}
        </div>

        <Button
          type="submit"
          size="lg"
          isFullWidth
          isLoading={isSubmitting}
          loadingText="Iniciando sesión..."
          disabled={hasErrors}
          iconEnd={<LogInIcon className="size-5" />}
          className="mt-1"
        >
          Iniciar sesión
        </Button>
      </form>
      {/* Outside the form: the appeal is a form of its own. */}
      {snap.status.status === 'error' && snap.status.restriction && renderRestricted?.(snap.status.restriction)}

      <div className="flex flex-col gap-4">
        <div className="flex items-center gap-3 text-sm font-medium text-stone-500 dark:text-stone-400">
          <span aria-hidden="true" className="h-px flex-1 bg-stone-200 dark:bg-stone-800" />O continúa con
          <span aria-hidden="true" className="h-px flex-1 bg-stone-200 dark:bg-stone-800" />
        </div>
        {/* Above Google's button, whose script draws it later: nothing of ours moves when it does. */}
        <PasskeySignIn rememberMe={snap.rememberMe} signIn={signIn} onSignedIn={onSignedIn} />
        {/*
          Google sign-in slot: the route passes <GoogleSignInButton/> (features/google-sign-in). Its
          height is held (h-11, the button's box) even when Google's script cannot load and the
          button hides: the form is centred, so a slot that grew or shrank late would move all of it.
        */}
        {alternativeSignIn !== undefined && alternativeSignIn !== null && (
          <div className="flex min-h-11 flex-col items-stretch">{alternativeSignIn}</div>
        )}
      </div>

      <p className="text-center text-[0.9375rem] text-stone-600 dark:text-stone-300">
        ¿No tienes cuenta?{' '}
        <Link to="/register" className={textLinkClasses}>
          Regístrate aquí
        </Link>
      </p>
    </div>
  );
}

/**
 * The login screen (spec 000 §2): on small screens the demo preview first, with an 'Iniciar
 * Sesión' button, then the form with a way back; on wide screens both side by side, the form
 * appearing after 600 ms.
 */
export function LoginScreen({
  alternativeSignIn,
  renderRestricted,
  notice,
  pendingSecondStep,
  onSignedIn,
  onTokenMissing,
}: LoginScreenProps) {
  usePageTitle('Iniciar sesión');
  const [secondStep] = useState(() =>
    createSecondStepStore({ complete: completeSecondStep, sendSms: sendSecondStepSms, signIn }),
  );
  const [store] = useState(() =>
    createLoginStore({
      readLocation: readLoginLocation,
      login,
      signIn,
      onSecondStep: (challenge, area) => secondStep.start(challenge, area),
    }),
  );
  // The installed app starts with «Recuérdame» ticked (docs/decisions/0052): on a phone it is an app,
  // and the system closing it must not sign the person out. After hydration: the prerendered page
  // is the same for everyone.
  useEffect(() => {
    if (isRunningInstalled()) store.setRememberMe(true);
  }, [store]);
  // Google's sign-in answered with a second step: its session is a remembered one (local storage).
  useEffect(() => {
    if (pendingSecondStep) secondStep.start(pendingSecondStep, 'local');
  }, [pendingSecondStep, secondStep]);
  const [view, setView] = useState<'preview' | 'form'>(
    notice === undefined && pendingSecondStep === undefined ? 'preview' : 'form',
  );
  const isFormShown = useDelay(LOGIN_FORM_DELAY_MS);
  const isWide = useIsWideScreen();
  const emailRef = useRef<HTMLInputElement>(null);
  const openFormRef = useRef<HTMLButtonElement>(null);
  const focusAfterSwitch = useRef<'email' | 'open' | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each switch between preview and form
  useEffect(() => {
    if (focusAfterSwitch.current === 'email') emailRef.current?.focus();
    if (focusAfterSwitch.current === 'open') openFormRef.current?.focus();
    focusAfterSwitch.current = null;
  }, [view]);

  const showForm = () => {
    focusAfterSwitch.current = 'email';
    setView('form');
  };
  const showPreview = () => {
    focusAfterSwitch.current = 'open';
    setView('preview');
  };

  return (
    // One main landmark and one h1 in every view (#20 item 10): the preview's headline on a phone's
    // first view and beside the form on wide screens, the form's title when it is alone.
    <main className="min-h-dvh lg:grid lg:grid-cols-[minmax(0,1fr)_minmax(27rem,34rem)]">
      {/* The demo preview: always dark, whatever the theme. */}
      <section
        aria-label="Vista previa de Entreno"
        className={cx(
          'relative isolate min-h-dvh flex-col overflow-hidden bg-stone-950 px-5 text-white',
          'pb-[calc(1.5rem+env(safe-area-inset-bottom))] pt-[calc(1rem+env(safe-area-inset-top))]',
          'lg:sticky lg:top-0 lg:flex lg:h-dvh lg:min-h-0 lg:px-10 lg:py-8 xl:px-14',
          view === 'preview' ? 'flex' : 'hidden',
        )}
      >
        <div aria-hidden="true" className="absolute inset-0 -z-10">
          <div className="absolute -left-40 -top-40 size-[34rem] rounded-full bg-brand-600/30 blur-3xl" />
          <div className="absolute -bottom-48 -right-32 size-[32rem] rounded-full bg-rose-600/20 blur-3xl" />
          <div className="absolute inset-0 bg-[radial-gradient(circle_at_1px_1px,rgba(255,255,255,0.07)_1px,transparent_0)] bg-[length:22px_22px] [mask-image:linear-gradient(to_bottom,black,transparent_85%)]" />
        </div>

        <header className="flex items-center justify-between">
          <Logo tone="inverse" size="md" />
          <ProdBadge />
        </header>

        <div className="flex flex-1 flex-col items-center justify-center gap-5 py-4 sm:gap-7 lg:py-6 xl:flex-row xl:justify-between xl:gap-10">
          <div className="max-w-md text-center xl:min-w-0 xl:flex-1 xl:text-left">
            <p className="hidden text-xs font-bold uppercase tracking-[0.2em] text-brand-300 sm:block">
              Gymbros y gymsis
            </p>
            <h1 className="text-balance text-[1.625rem] font-extrabold leading-[1.1] tracking-tight sm:mt-3 sm:text-4xl xl:text-[2.625rem]">
              Encuentra con quién{' '}
              <span className="bg-gradient-to-r from-brand-300 via-brand-400 to-rose-400 bg-clip-text text-transparent">
                entrenar
              </span>{' '}
              cerca de ti.
            </h1>
            <p className="mt-4 hidden text-pretty text-base leading-relaxed text-stone-300 sm:block">
              Desliza, haz match y quedad para entrenar. Tu próximo compañero de gimnasio está a pocos kilómetros.
            </p>
            <DemoFeatures className="mt-7 hidden xl:flex xl:justify-start" />
          </div>
          <div className="motion-safe:animate-[demo-float_7s_ease-in-out_2]">
            <DemoPhone isActive={view === 'preview' || isWide} />
          </div>
          <DemoFeatures className="xl:hidden" />
        </div>

        <div className="mx-auto flex w-full max-w-sm flex-col gap-3 lg:hidden">
          <Button ref={openFormRef} size="lg" isFullWidth onClick={showForm} iconEnd={<LogInIcon className="size-5" />}>
            Iniciar Sesión
          </Button>
          <p className="text-center text-sm text-stone-300">
            ¿Nuevo en Entreno?{' '}
            <Link
              to="/register"
              className="rounded font-semibold text-brand-300 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-brand-400"
            >
              Regístrate aquí
            </Link>
          </p>
        </div>
        <p className="hidden text-sm text-stone-400 lg:block">Solo para mayores de 18 años.</p>
      </section>

      {/* The form. */}
      <section
        aria-label="Iniciar sesión"
        className={cx(
          'relative isolate min-h-dvh flex-col px-5 pb-[calc(1.5rem+env(safe-area-inset-bottom))] pt-[calc(1rem+env(safe-area-inset-top))] sm:px-8 lg:flex lg:px-12 lg:py-8',
          view === 'form' ? 'flex' : 'hidden',
        )}
      >
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-x-0 top-0 -z-10 h-72 bg-gradient-to-b from-brand-100/70 to-transparent dark:from-brand-500/10"
        />
        <div className="flex items-center justify-between lg:hidden">
          <Button variant="ghost" size="sm" onClick={showPreview} iconStart={<ArrowLeftIcon className="size-4.5" />}>
            Vista previa
          </Button>
          <Logo size="sm" />
        </div>
        <div
          className={cx(
            'mx-auto flex w-full max-w-md flex-1 flex-col justify-center py-8',
            // Hidden but laid out until 600 ms have passed, so nothing shifts when it appears.
            isFormShown ? 'visible motion-safe:animate-[demo-reveal_420ms_ease-out_both]' : 'invisible',
          )}
        >
          <LoginForm
            store={store}
            secondStep={secondStep}
            alternativeSignIn={
              typeof alternativeSignIn === 'function' ? alternativeSignIn(view === 'form' || isWide) : alternativeSignIn
            }
            renderRestricted={renderRestricted}
            notice={notice}
            onSignedIn={onSignedIn}
            onTokenMissing={onTokenMissing}
            emailRef={emailRef}
            isTitleMain={!isWide}
          />
        </div>
        <footer className="flex justify-center gap-6 text-sm text-stone-600 dark:text-stone-400">
          <Link to="/terms" className={footerLinkClasses}>
            Términos
          </Link>
          <Link to="/privacy" className={footerLinkClasses}>
            Privacidad
          </Link>
        </footer>
      </section>
    </main>
  );
}
