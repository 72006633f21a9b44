import { Link } from '@tanstack/react-router';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { AUTH_MESSAGES } from '#shared/auth/auth-messages';
import { Button, buttonClasses } from '../../ui/button.tsx';
import { AlertCircleIcon, ArrowLeftIcon, CheckCircleIcon, KeyIcon, LogInIcon, MailIcon } from '../../ui/icons.tsx';
import { textLinkClasses } from '../../ui/link-classes.ts';
import { Spinner } from '../../ui/spinner.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { requestPasswordReset, resetPassword, validateResetToken } from './auth-api.ts';
import { AUTH_SCREEN_TEXTS } from './auth-texts.ts';
import { PasswordRuleList, PasswordStrengthMeter } from '../../ui/password-strength.tsx';
import { canSubmitReset, createResetPasswordStore, type ResetPasswordStore } from './reset-password-store.ts';
import { InlineMessage, ScreenCard, ScreenHeader, SupportContact } from './screen-parts.tsx';

/** Spec 000 §9: "redirect 2 s after reset". */
export const RESET_REDIRECT_DELAY_MS = 2000;

function BackToLogin() {
  return (
    <p className="text-center text-[0.9375rem]">
      <Link to="/login" className={`${textLinkClasses} inline-flex items-center gap-1.5`}>
        <ArrowLeftIcon className="size-4" />
        Volver a iniciar sesión
      </Link>
    </p>
  );
}

function ResetForm({ store, email }: { store: ResetPasswordStore; email: string | undefined }) {
  const snap = useSnapshot(store.state, { sync: true });
  const [isConfirmationTouched, setIsConfirmationTouched] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  const rulesId = useId();
  const isMismatch =
    snap.confirmation !== '' &&
    snap.confirmation !== snap.password &&
    (isConfirmationTouched || snap.confirmation.length >= snap.password.length);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if ((await store.submit()) === 'invalid') passwordRef.current?.focus();
  };

  return (
    <div className="flex flex-col gap-6">
      <ScreenHeader
        icon={<KeyIcon className="size-7" />}
        title="Nueva contraseña"
        subtitle={
          email ? (
            <>
              Elige una nueva contraseña para{' '}
              <strong className="[overflow-wrap:anywhere] font-semibold text-stone-900 dark:text-white">{email}</strong>
              .
            </>
          ) : (
            'Elige una nueva contraseña para tu cuenta.'
          )
        }
      />
      <ScreenCard>
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          {/* Lets password managers attach the new password to the right account. */}
          <input type="email" name="username" autoComplete="username" value={email ?? ''} readOnly hidden />
          <div className="flex flex-col gap-2.5">
            <TextField
              ref={passwordRef}
              label="Nueva contraseña"
              type="password"
              name="newPassword"
              autoComplete="new-password"
              value={snap.password}
              onChange={(event) => store.setPassword(event.target.value)}
              aria-describedby={rulesId}
            />
            <PasswordStrengthMeter password={snap.password} />
            <PasswordRuleList id={rulesId} password={snap.password} />
          </div>
          <TextField
            label="Confirmar contraseña"
            type="password"
            name="confirmPassword"
            autoComplete="new-password"
            value={snap.confirmation}
            onChange={(event) => store.setConfirmation(event.target.value)}
            onBlur={() => setIsConfirmationTouched(true)}
            error={isMismatch ? AUTH_MESSAGES.passwordMismatch : undefined}
          />
          <div aria-live="assertive" className="empty:hidden">
            {snap.formError !== undefined && <InlineMessage tone="error">{snap.formError}</InlineMessage>}
          </div>
          <Button
            type="submit"
            size="lg"
            isFullWidth
            isLoading={snap.isSubmitting}
            loadingText="Guardando..."
            disabled={!canSubmitReset(snap)}
          >
            Cambiar contraseña
          </Button>
        </form>
      </ScreenCard>
      <BackToLogin />
    </div>
  );
}

function ExpiredLink({ store, email }: { store: ResetPasswordStore; email: string | undefined }) {
  const snap = useSnapshot(store.state, { sync: true });
  return (
    <div className="flex flex-col gap-6">
      <ScreenHeader
        tone="danger"
        icon={<AlertCircleIcon className="size-7" />}
        title="Enlace no válido"
        subtitle={snap.expiredMessage}
      />
      <ScreenCard className="flex flex-col gap-4">
        <p className="text-pretty text-[0.9375rem] leading-relaxed text-stone-700 dark:text-stone-200">
          Los enlaces para restablecer la contraseña caducan en 1 hora y solo se pueden usar una vez.
          {email ? (
            <>
              {' '}
              Podemos enviar uno nuevo a{' '}
              <strong className="[overflow-wrap:anywhere] font-semibold text-stone-900 dark:text-white">{email}</strong>
              .
            </>
          ) : (
            ' Pide uno nuevo con tu email.'
          )}
        </p>
        {email ? (
          <Button
            size="lg"
            isFullWidth
            isLoading={snap.resend.status === 'sending'}
            loadingText={AUTH_SCREEN_TEXTS.sendingEmail}
            iconStart={<MailIcon className="size-5" />}
            onClick={() => void store.resend()}
          >
            Solicitar nuevo enlace
          </Button>
        ) : (
          <Link to="/forgot-password" className={buttonClasses({ size: 'lg', isFullWidth: true })}>
            <MailIcon className="size-5" />
            Solicitar nuevo enlace
          </Link>
        )}
        <div aria-live="polite" className="empty:hidden">
          {snap.resend.status === 'sent' && (
            <InlineMessage tone="success">{AUTH_SCREEN_TEXTS.resendSucceeded}</InlineMessage>
          )}
          {snap.resend.status === 'error' && (
            <InlineMessage tone="error">{AUTH_SCREEN_TEXTS.resendFailed}</InlineMessage>
          )}
        </div>
        <p className="text-center text-sm text-stone-600 dark:text-stone-400">
          ¿Quieres usar otro email?{' '}
          <Link to="/forgot-password" className={textLinkClasses}>
            Recuperar contraseña
          </Link>
        </p>
      </ScreenCard>
      <BackToLogin />
    </div>
  );
}

function ResetDone() {
  const titleRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => titleRef.current?.focus(), []);
  return (
    <div className="flex flex-col gap-6">
      <ScreenHeader
        titleRef={titleRef}
        tone="success"
        icon={<CheckCircleIcon className="size-7" />}
        title="Contraseña actualizada"
        subtitle="Ya puedes iniciar sesión con tu nueva contraseña. Por seguridad, hemos cerrado tus sesiones abiertas."
      />
      <InlineMessage tone="success">{AUTH_SCREEN_TEXTS.resetSucceeded}</InlineMessage>
      <Link to="/login" className={buttonClasses({ size: 'lg', isFullWidth: true })}>
        <LogInIcon className="size-5" />
        Ir a iniciar sesión
      </Link>
      <SupportContact />
    </div>
  );
}

/**
 * Set a new password from the e-mailed link (spec 000 §2, §4 "Reset link"): 'Validando enlace...',
 * then the form, the expired screen or, after the change, the success screen and /login 2 s later.
 */
export function ResetPasswordScreen({
  token,
  email,
  onDone,
}: {
  token: string | undefined;
  email: string | undefined;
  onDone(): void;
}) {
  const [store] = useState(() =>
    createResetPasswordStore(
      { token, email },
      {
        validateLink: validateResetToken,
        resetPassword,
        requestReset: requestPasswordReset,
      },
    ),
  );
  const snap = useSnapshot(store.state, { sync: true });
  usePageTitle(
    snap.link === 'success'
      ? 'Contraseña actualizada'
      : snap.link === 'expired'
        ? 'Enlace no válido'
        : 'Nueva contraseña',
  );

  useEffect(() => {
    void store.validate();
  }, [store]);

  const onDoneRef = useRef(onDone);
  onDoneRef.current = onDone;
  useEffect(() => {
    if (snap.link !== 'success') return;
    const timer = setTimeout(() => onDoneRef.current(), RESET_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [snap.link]);

  switch (snap.link) {
    case 'loading':
      return (
        <div className="flex min-h-72 flex-col items-center justify-center gap-4 text-brand-700 dark:text-brand-400">
          <Spinner size="lg" label={null} />
          <p role="status" className="text-base font-semibold text-stone-700 dark:text-stone-200">
            {AUTH_SCREEN_TEXTS.validatingLink}
          </p>
        </div>
      );
    case 'valid':
      return <ResetForm store={store} email={email} />;
    case 'expired':
      return <ExpiredLink store={store} email={email} />;
    case 'success':
      return <ResetDone />;
  }
}
