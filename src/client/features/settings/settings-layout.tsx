/** The frame of /config: its sections (one card each, with a heading and icon) and their side navigation. */
import type { ReactNode } from 'react';
import { cx } from '../../ui/cx.ts';
import {
  BellIcon,
  CompassIcon,
  FileTextIcon,
  LockIcon,
  LogInIcon,
  MonitorIcon,
  ShieldCheckIcon,
  UserIcon,
} from '../../ui/icons.tsx';

export const SECTIONS = [
  { id: 'perfil', title: 'Perfil', icon: UserIcon },
  { id: 'busqueda', title: 'Preferencias de búsqueda', icon: CompassIcon },
  { id: 'notificaciones', title: 'Notificaciones', icon: BellIcon },
  { id: 'privacidad', title: 'Privacidad y Datos', icon: LockIcon },
  { id: 'seguridad', title: 'Seguridad', icon: ShieldCheckIcon },
  { id: 'cookies', title: 'Cookies', icon: FileTextIcon },
  { id: 'aplicacion', title: 'Configuración de la aplicación', icon: MonitorIcon },
  { id: 'sesion', title: 'Cerrar sesión', icon: LogInIcon },
] as const;
export type SectionId = (typeof SECTIONS)[number]['id'];

export const CARD =
  'rounded-3xl bg-white p-5 shadow-sm ring-1 ring-stone-900/6 sm:p-6 dark:bg-stone-900 dark:ring-white/8';
export const FIELD_LABEL = 'text-[0.9375rem] font-medium text-stone-900 dark:text-stone-100';
export const SELECT =
  'mt-1.5 h-11 w-full rounded-xl border-0 bg-white px-3 text-[0.9375rem] text-stone-900 ring-1 ring-inset ring-stone-300 ' +
  'focus-visible:outline-2 focus-visible:outline-brand-600 dark:bg-stone-800 dark:text-stone-50 dark:ring-stone-600 dark:focus-visible:outline-brand-400';

export function Section({
  id,
  description,
  children,
}: {
  id: SectionId;
  description?: ReactNode;
  children: ReactNode;
}) {
  const section = SECTIONS.find((entry) => entry.id === id) ?? SECTIONS[0];
  return (
    <section id={id} aria-labelledby={`${id}-title`} className={cx(CARD, 'scroll-mt-20 lg:scroll-mt-8')}>
      <h2 id={`${id}-title`} className="flex items-center gap-2.5 text-lg font-bold text-stone-900 dark:text-white">
        <section.icon className="size-5 text-brand-700 dark:text-brand-400" />
        {section.title}
      </h2>
      {description !== undefined && <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{description}</p>}
      <div className="mt-4 flex flex-col gap-4">{children}</div>
    </section>
  );
}

export function SectionNav() {
  return (
    <nav aria-label="Secciones de configuración" className="sticky top-8 hidden self-start lg:block">
      <ul className="flex flex-col gap-0.5">
        {SECTIONS.map((section) => (
          <li key={section.id}>
            <a
              href={`#${section.id}`}
              className="flex items-center gap-2.5 rounded-xl px-3 py-2 text-sm font-semibold text-stone-700 hover:bg-stone-100 hover:text-stone-900 focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-stone-300 dark:hover:bg-white/6 dark:hover:text-white dark:focus-visible:outline-brand-400"
            >
              <section.icon className="size-4.5 shrink-0 text-stone-500 dark:text-stone-400" />
              {section.title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function Divider() {
  return <hr className="border-stone-200 dark:border-white/8" />;
}
