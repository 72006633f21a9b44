import { cx } from './cx.ts';

function CloudOffIcon({ className }: { className: string }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={className}
    >
      <path d="m2 2 20 20" />
      <path d="M5.782 5.782A7 7 0 0 0 9 19h8.5a4.5 4.5 0 0 0 1.307-.193" />
      <path d="M21.532 16.5A4.5 4.5 0 0 0 17.5 10h-1.79A7.008 7.008 0 0 0 10 5.07" />
    </svg>
  );
}

/**
 * A screen opened offline that this device has never loaded (issue #22): nothing to show yet, and
 * no error either. The screen fills itself when the connection returns (`useReloadWhenOnline`).
 */
export function OfflinePlaceholder({ className }: { className?: string }) {
  return (
    <div
      role="status"
      data-testid="offline-placeholder"
      className={cx(
        'flex flex-col items-center gap-3 rounded-3xl border border-dashed border-stone-300 px-6 py-12 text-center dark:border-white/15',
        className,
      )}
    >
      <span className="grid size-14 place-items-center rounded-full bg-stone-100 text-stone-600 dark:bg-white/8 dark:text-stone-300">
        <CloudOffIcon className="size-7" />
      </span>
      <p className="font-semibold text-stone-800 dark:text-stone-100">Aún no hay nada guardado aquí</p>
      <p className="max-w-xs text-sm text-stone-600 dark:text-stone-400">
        Esta pantalla no se ha abierto con conexión en este dispositivo. Se completará sola en cuanto vuelva la
        conexión.
      </p>
    </div>
  );
}
