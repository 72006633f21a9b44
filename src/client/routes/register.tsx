import { Link } from '@tanstack/react-router';
import { GoogleSignInButton } from '../features/google-sign-in/index.ts';
import { TermsNotice } from '../features/registration/index.ts';
import { ChevronRightIcon, MailIcon } from '../ui/icons.tsx';
import { textLinkClasses } from '../ui/link-classes.ts';
import { usePageTitle } from '../ui/use-page-title.ts';

const METHOD_LINK =
  'group flex items-center gap-4 rounded-2xl bg-white p-4 ring-1 ring-stone-300 transition hover:ring-brand-500 hover:shadow-md hover:shadow-brand-900/5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 motion-reduce:transition-none dark:bg-stone-950/40 dark:ring-stone-700 dark:hover:ring-brand-400 dark:focus-visible:outline-brand-400';

/** Registration method chooser (spec 000 §2): e-mail wizard or Google. */
export function RegisterPage() {
  usePageTitle('Crear cuenta');
  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-col items-center text-center lg:items-start lg:text-left">
        <h1 className="text-balance text-3xl font-extrabold tracking-tight text-stone-900 dark:text-white">
          Crea tu cuenta
        </h1>
        <p className="mt-2 text-base text-stone-600 dark:text-stone-300">
          Elige cómo quieres registrarte y empieza a entrenar acompañado.
        </p>
      </header>
      <div className="flex flex-col gap-5 rounded-3xl bg-white p-5 shadow-sm ring-1 ring-stone-900/6 sm:p-7 dark:bg-stone-900 dark:ring-white/8">
        <Link to="/register/email" className={METHOD_LINK}>
          <span
            aria-hidden="true"
            className="grid size-12 shrink-0 place-items-center rounded-xl bg-brand-50 text-brand-700 dark:bg-brand-500/12 dark:text-brand-300"
          >
            <MailIcon className="size-5.5" />
          </span>
          <span className="min-w-0 flex-1">
            <span className="block font-semibold text-stone-900 dark:text-stone-50">Registrarse con correo</span>
            <span className="mt-0.5 block text-sm text-stone-600 dark:text-stone-400">
              Nombre, correo, teléfono y contraseña
            </span>
          </span>
          <ChevronRightIcon className="size-5 shrink-0 text-stone-500 transition-transform group-hover:translate-x-0.5 motion-reduce:transition-none dark:text-stone-400" />
        </Link>
        <div className="flex items-center gap-3" aria-hidden="true">
          <span className="h-px flex-1 bg-stone-200 dark:bg-stone-700" />
          <span className="text-xs font-semibold uppercase tracking-wider text-stone-500 dark:text-stone-400">o</span>
          <span className="h-px flex-1 bg-stone-200 dark:bg-stone-700" />
        </div>
        <GoogleSignInButton text="signup_with" />
      </div>
      <TermsNotice />
      <p className="text-center text-sm text-stone-600 dark:text-stone-300">
        ¿Ya tienes cuenta?{' '}
        <Link to="/login" className={textLinkClasses}>
          Inicia sesión
        </Link>
      </p>
    </div>
  );
}
