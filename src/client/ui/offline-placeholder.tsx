import { cx } from './cx.ts';
import { CloudOffIcon } from './icons.tsx';

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
