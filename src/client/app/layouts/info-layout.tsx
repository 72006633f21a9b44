import { Link, Outlet } from '@tanstack/react-router';
import { Logo } from '../../ui/logo.tsx';

/** Frame of reading pages that anyone may open: terms, privacy and the development pages. */
export function InfoLayout() {
  return (
    <div className="min-h-dvh">
      <header className="sticky top-0 z-20 border-b border-stone-200/80 bg-white/85 pt-[env(safe-area-inset-top)] backdrop-blur-xl dark:border-white/8 dark:bg-stone-900/85">
        <div className="mx-auto flex h-14 max-w-3xl items-center px-4 sm:px-6">
          <Link
            to="/"
            className="rounded-xl focus-visible:outline-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-400"
          >
            <Logo size="sm" />
            <span className="sr-only">, ir al inicio</span>
          </Link>
        </div>
      </header>
      <main className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6 lg:py-12">
        <Outlet />
      </main>
    </div>
  );
}
