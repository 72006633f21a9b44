import { useId } from 'react';
import { MAX_NOTE_LENGTH } from '#shared/moderation/moderation-schemas';

const AREA =
  'min-h-20 w-full resize-y rounded-xl bg-white px-3.5 py-2.5 text-[0.9375rem] text-stone-900 ring-1 ring-inset ring-stone-300 ' +
  'placeholder:text-stone-500 focus:outline-none focus:ring-2 focus:ring-brand-600 dark:bg-stone-900 dark:text-white ' +
  'dark:ring-stone-700 dark:placeholder:text-stone-400 dark:focus:ring-brand-400';

/** A labelled text area with its live `n/1000` counter (notes, appeals). */
export function NoteField(props: {
  label: string;
  value: string;
  onChange(value: string): void;
  placeholder?: string;
  isRequired?: boolean;
}) {
  const id = useId();
  const counterId = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-stone-800 dark:text-stone-200">
        {props.label}
      </label>
      <textarea
        id={id}
        value={props.value}
        maxLength={MAX_NOTE_LENGTH}
        rows={3}
        required={props.isRequired}
        aria-describedby={counterId}
        placeholder={props.placeholder}
        onChange={(event) => props.onChange(event.target.value)}
        className={AREA}
      />
      <p id={counterId} className="self-end text-xs tabular-nums text-stone-600 dark:text-stone-400">
        {`${props.value.length}/${MAX_NOTE_LENGTH}`}
      </p>
    </div>
  );
}

/** A failed call's message, announced. */
export function ErrorText({ message }: { message: string | null }) {
  return (
    <div aria-live="assertive" className="empty:hidden">
      {message && (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
          {message}
        </p>
      )}
    </div>
  );
}

/** The Spanish message of a failed call (the server's own, or a fallback). */
export function failureMessage(error: unknown, fallback: string): string {
  const failure = error as { kind?: string; message?: string } | null;
  if (failure?.kind === 'network' || failure?.kind === 'timeout')
    return 'Sin conexión. Inténtalo de nuevo cuando vuelvas a tener red.';
  return failure?.message || fallback;
}
