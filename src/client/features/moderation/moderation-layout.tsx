import { Link, Outlet } from '@tanstack/react-router';
import { textLinkClasses } from '../../ui/link-classes.ts';
import { Logo } from '../../ui/logo.tsx';
import { CONSOLE_SECTIONS } from './console-sections.ts';

/**
 * The frame of the moderation console: its own header and section navigation, apart from the
 * members' app (a moderator reviews here, and uses the app as anyone else does).
 */
export function ModerationLayout() {
  return (
    <div className="min-h-dvh">
      <header className="sticky top-0 z-20 border-b border-stone-200/80 bg-white/85 pt-[env(safe-area-inset-top)] backdrop-blur-xl dark:border-white/8 dark:bg-stone-900/85">
        <div className="mx-auto flex h-14 max-w-5xl items-center gap-4 px-4 sm:px-6">
          <Link
            to="/home"
            className="rounded-xl focus-visible:outline-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-400"
          >
            <Logo size="sm" />
            <span className="sr-only">, volver a la app</span>
          </Link>
          <span className="text-sm font-semibold text-stone-600 dark:text-stone-300">Moderación</span>
        </div>
        <nav aria-label="Secciones de moderación" className="mx-auto max-w-5xl px-4 sm:px-6">
          <ul className="flex gap-1 overflow-x-auto pb-2">
            {CONSOLE_SECTIONS.map((section) => (
              <li key={section.to}>
                <Link
                  to={section.to}
                  activeOptions={{ exact: true }}
                  className="block rounded-lg px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-400"
                  activeProps={{ className: 'bg-brand-700 text-white dark:bg-brand-500 dark:text-stone-950' }}
                  inactiveProps={{
                    className: 'text-stone-700 hover:bg-stone-900/5 dark:text-stone-200 dark:hover:bg-white/8',
                  }}
                >
                  {section.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="contenido" className="mx-auto w-full max-w-5xl px-4 py-6 sm:px-6">
        <Outlet />
      </main>
    </div>
  );
}

/** "Consola de moderación": shown in Configuración to moderators only. */
export function ModerationConsoleLink() {
  return (
    <Link to="/moderacion" className={textLinkClasses}>
      Abrir la consola de moderación
    </Link>
  );
}
