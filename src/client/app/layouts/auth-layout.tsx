import { Link, Outlet } from '@tanstack/react-router';
import { DumbbellIcon, HeartIcon, UsersIcon } from '../../ui/icons.tsx';
import { Logo } from '../../ui/logo.tsx';

const FEATURES = [
  { icon: UsersIcon, title: 'Conexiones', text: 'Personas que entrenan cerca de ti, con tus horarios.' },
  { icon: HeartIcon, title: 'Compatibilidad', text: 'Un porcentaje según tus objetivos, deportes y nivel.' },
  { icon: DumbbellIcon, title: 'Entrenamientos', text: 'Haz match, chatea y quedad para entrenar juntos.' },
] as const;

/** The brand panel beside the access screens on wide screens; always dark, whatever the theme. */
function BrandPanel() {
  return (
    <aside className="relative isolate hidden overflow-hidden bg-stone-950 px-12 py-12 text-white lg:flex lg:w-[44%] lg:flex-col lg:justify-between xl:px-16">
      <div
        aria-hidden="true"
        className="absolute -left-32 -top-32 -z-10 size-[30rem] rounded-full bg-brand-600/35 blur-3xl"
      />
      <div
        aria-hidden="true"
        className="absolute -bottom-40 -right-24 -z-10 size-[28rem] rounded-full bg-brand-500/25 blur-3xl"
      />
      <Logo tone="inverse" size="md" />
      <div className="max-w-md">
        <p className="text-sm font-bold uppercase tracking-[0.18em] text-brand-300">Gymbros y gymsis</p>
        <p className="mt-4 text-balance text-4xl font-extrabold leading-tight tracking-tight xl:text-5xl">
          Encuentra con quién entrenar cerca de ti.
        </p>
        <ul className="mt-10 flex flex-col gap-5">
          {FEATURES.map((feature) => (
            <li key={feature.title} className="flex items-start gap-4">
              <span
                aria-hidden="true"
                className="grid size-11 shrink-0 place-items-center rounded-2xl bg-white/8 text-brand-300 ring-1 ring-white/12"
              >
                <feature.icon className="size-5.5" />
              </span>
              <span>
                <span className="block font-bold">{feature.title}</span>
                <span className="block text-[0.9375rem] leading-snug text-stone-300">{feature.text}</span>
              </span>
            </li>
          ))}
        </ul>
      </div>
      <p className="text-sm text-stone-400">Solo para mayores de 18 años.</p>
    </aside>
  );
}

/** Frame of the public access screens (spec 000 §2): login, registration and password recovery. */
export function AuthLayout() {
  return (
    <div className="flex min-h-dvh">
      <BrandPanel />
      <div className="relative isolate flex min-w-0 flex-1 flex-col">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-x-0 top-0 -z-10 h-72 bg-gradient-to-b from-brand-100/80 to-transparent lg:hidden dark:from-brand-500/10"
        />
        <header className="flex justify-center px-5 pb-2 pt-[calc(2rem+env(safe-area-inset-top))] lg:hidden">
          <Logo size="md" />
        </header>
        <main className="flex flex-1 flex-col items-center justify-start px-5 pb-8 pt-6 sm:justify-center sm:px-8 sm:py-8">
          <div className="w-full max-w-md">
            <Outlet />
          </div>
        </main>
        <footer className="flex justify-center gap-6 px-5 pb-[calc(1.5rem+env(safe-area-inset-bottom))] text-sm">
          <Link
            to="/terms"
            className="rounded font-medium text-stone-600 underline-offset-4 hover:text-stone-900 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-stone-400 dark:hover:text-stone-100"
          >
            Términos
          </Link>
          <Link
            to="/privacy"
            className="rounded font-medium text-stone-600 underline-offset-4 hover:text-stone-900 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-stone-400 dark:hover:text-stone-100"
          >
            Privacidad
          </Link>
        </footer>
      </div>
    </div>
  );
}
