import { AlertCircleIcon } from './icons.tsx';

/**
 * An error about a whole form or dialog (not one field), announced at once: the live region stays
 * mounted so a screen reader hears the message the moment it appears.
 */
export function FormAlert({ message }: { message: string | null | undefined }) {
  return (
    <div aria-live="assertive" className="empty:hidden">
      {message && (
        <p
          role="alert"
          className="flex items-start gap-2.5 rounded-2xl bg-red-50 px-4 py-3 text-sm font-medium text-red-800 ring-1 ring-inset ring-red-200 dark:bg-red-500/10 dark:text-red-200 dark:ring-red-400/25"
        >
          <AlertCircleIcon className="mt-0.5 size-4.5 shrink-0" />
          {message}
        </p>
      )}
    </div>
  );
}
