import { Link } from '@tanstack/react-router';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Button } from '../../ui/button.tsx';
import { ArrowLeftIcon, CheckCircleIcon, InboxIcon, KeyIcon, MailIcon, ShieldCheckIcon } from '../../ui/icons.tsx';
import { textLinkClasses } from '../../ui/link-classes.ts';
import { TextField } from '../../ui/text-field.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { requestPasswordReset } from './auth-api.ts';
import { AUTH_SCREEN_TEXTS } from './auth-texts.ts';
import { createForgotPasswordStore } from './forgot-password-store.ts';
import { InlineMessage, ScreenCard, ScreenHeader, SupportContact } from './screen-parts.tsx';

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

/** Request a password reset e-mail (spec 000 §2): idle, loading, sent and error. */
export function ForgotPasswordScreen() {
  const [store] = useState(() => createForgotPasswordStore({ requestReset: requestPasswordReset }));
  const snap = useSnapshot(store.state, { sync: true });
  const emailRef = useRef<HTMLInputElement>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const isSent = snap.status.status === 'sent';
  usePageTitle(isSent ? 'Revisa tu correo' : 'Recuperar contraseña');

  // Moving between the form and the confirmation takes focus with it.
  const previous = useRef(isSent);
  useEffect(() => {
    if (previous.current === isSent) return;
    previous.current = isSent;
    if (isSent) titleRef.current?.focus();
    else emailRef.current?.focus();
  }, [isSent]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if ((await store.submit()) === 'invalid') emailRef.current?.focus();
  };

  if (snap.status.status === 'sent') {
    const { email } = snap.status;
    return (
      <div className="flex flex-col gap-6">
        <ScreenHeader
          titleRef={titleRef}
          tone="success"
          icon={<MailIcon className="size-7" />}
          title="Revisa tu correo"
          subtitle={
            <>
              Si existe una cuenta asociada a{' '}
              <strong className="font-semibold text-stone-900 dark:text-white">{email}</strong>, recibirás un correo con
              las instrucciones para restablecer tu contraseña.
            </>
          }
        />
        <ScreenCard>
          <ul className="flex flex-col gap-3.5 text-[0.9375rem] leading-snug text-stone-700 dark:text-stone-200">
            <li className="flex items-start gap-3">
              <InboxIcon className="mt-0.5 size-5 shrink-0 text-brand-700 dark:text-brand-400" />
              Revisa tu bandeja de entrada y también la carpeta de spam o correo no deseado.
            </li>
            <li className="flex items-start gap-3">
              <ShieldCheckIcon className="mt-0.5 size-5 shrink-0 text-brand-700 dark:text-brand-400" />
              Por seguridad, el enlace caduca en 1 hora.
            </li>
            <li className="flex items-start gap-3">
              <CheckCircleIcon className="mt-0.5 size-5 shrink-0 text-brand-700 dark:text-brand-400" />
              Si no te llega nada en unos minutos, vuelve a intentarlo.
            </li>
          </ul>
          <Button variant="secondary" isFullWidth className="mt-5" onClick={() => store.retry()}>
            Volver a intentarlo
          </Button>
        </ScreenCard>
        <SupportContact />
        <BackToLogin />
      </div>
    );
  }

  const isLoading = snap.status.status === 'loading';
  return (
    <div className="flex flex-col gap-6">
      <ScreenHeader
        titleRef={titleRef}
        icon={<KeyIcon className="size-7" />}
        title="Recuperar contraseña"
        subtitle="Escribe el email de tu cuenta y te enviaremos un enlace para elegir una nueva contraseña."
      />
      <ScreenCard>
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <TextField
            ref={emailRef}
            label="Email"
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            autoCapitalize="none"
            spellCheck={false}
            placeholder="tu@email.com"
            value={snap.email}
            onChange={(event) => store.setEmail(event.target.value)}
            error={snap.emailError}
          />
          <div aria-live="assertive" className="empty:hidden">
            {snap.status.status === 'error' && <InlineMessage tone="error">{snap.status.message}</InlineMessage>}
          </div>
          <Button
            type="submit"
            size="lg"
            isFullWidth
            isLoading={isLoading}
            loadingText={AUTH_SCREEN_TEXTS.sendingEmail}
            disabled={snap.emailError !== undefined}
          >
            Recuperar contraseña
          </Button>
        </form>
      </ScreenCard>
      <BackToLogin />
    </div>
  );
}
