import { type Snapshot, useSnapshot } from 'valtio';
import { cx } from './cx.ts';
import { AlertCircleIcon, CheckCircleIcon, CloseIcon, InfoIcon } from './icons.tsx';
import { dismissToast, type Toast, type ToastTone, toastState } from './toast-store.ts';

const TONE_ICON: Record<ToastTone, typeof InfoIcon> = {
  success: CheckCircleIcon,
  error: AlertCircleIcon,
  info: InfoIcon,
};

const TONE_ICON_CLASS: Record<ToastTone, string> = {
  success: 'text-emerald-600 dark:text-emerald-400',
  error: 'text-red-600 dark:text-red-400',
  info: 'text-brand-600 dark:text-brand-400',
};

function ToastCard({ toast }: { toast: Snapshot<Toast> }) {
  const Icon = TONE_ICON[toast.tone];
  return (
    <li className="pointer-events-auto flex w-full items-start gap-3 rounded-2xl bg-white p-3.5 pr-2 shadow-xl shadow-stone-900/10 ring-1 ring-stone-900/8 animate-[toast-in_200ms_ease-out] dark:bg-stone-800 dark:shadow-black/40 dark:ring-white/10">
      <Icon className={cx('mt-0.5 size-5 shrink-0', TONE_ICON_CLASS[toast.tone])} />
      <p className="min-w-0 flex-1 pt-px text-[0.9375rem] leading-snug text-stone-900 dark:text-stone-50">
        {toast.message}
      </p>
      {toast.action && (
        <button
          type="button"
          onClick={() => {
            toast.action?.onClick();
            dismissToast(toast.id);
          }}
          className="shrink-0 rounded-lg px-2.5 py-1 text-sm font-bold text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-brand-400 dark:hover:bg-white/8"
        >
          {toast.action.label}
        </button>
      )}
      <button
        type="button"
        onClick={() => dismissToast(toast.id)}
        aria-label="Cerrar aviso"
        className="-my-1 grid size-8 shrink-0 place-items-center rounded-lg text-stone-500 hover:bg-stone-900/5 hover:text-stone-900 focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-stone-400 dark:hover:bg-white/8 dark:hover:text-stone-100"
      >
        <CloseIcon className="size-4" />
      </button>
    </li>
  );
}

/**
 * Renders the toast queue. Two live regions exist from the start (screen readers only announce
 * changes to regions already in the page): errors are assertive, the rest polite.
 */
export function Toaster() {
  const { toasts } = useSnapshot(toastState);
  const errors = toasts.filter((toast) => toast.tone === 'error');
  const others = toasts.filter((toast) => toast.tone !== 'error');
  const listClass = 'flex flex-col gap-2';
  return (
    <div className="pointer-events-none fixed inset-x-0 top-0 z-[60] flex flex-col items-center gap-2 px-3 pt-[calc(0.75rem+env(safe-area-inset-top))] sm:inset-x-auto sm:right-0 sm:items-end sm:px-5 sm:pt-5">
      <div role="alert" aria-live="assertive" aria-atomic="false" className="w-full max-w-sm">
        <ul className={listClass}>
          {errors.map((toast) => (
            <ToastCard key={toast.id} toast={toast} />
          ))}
        </ul>
      </div>
      <div role="status" aria-live="polite" aria-atomic="false" className="w-full max-w-sm">
        <ul className={listClass}>
          {others.map((toast) => (
            <ToastCard key={toast.id} toast={toast} />
          ))}
        </ul>
      </div>
    </div>
  );
}
