import { cx } from '../../ui/cx.ts';
import { CheckIcon } from '../../ui/icons.tsx';

export type ProgressStep = { readonly step: number; readonly label: string };

/** Labelled steps with the current one marked (aria-current="step"); done steps show a tick. */
export function WizardProgress({
  steps,
  current,
  label,
  completed = [],
}: {
  steps: readonly ProgressStep[];
  current: number;
  label: string;
  /** Steps ahead of the current one that are already done (a verified phone's code step). */
  completed?: readonly number[];
}) {
  return (
    <nav aria-label={label} className="-mx-3 sm:mx-0">
      <ol className="flex items-start">
        {steps.map((item, index) => {
          const isDone = item.step < current || (item.step !== current && completed.includes(item.step));
          const isCurrent = item.step === current;
          const isLast = index === steps.length - 1;
          return (
            <li
              key={item.step}
              aria-current={isCurrent ? 'step' : undefined}
              className="relative flex flex-1 flex-col items-center gap-1.5"
            >
              {!isLast && (
                <span
                  aria-hidden="true"
                  className={cx(
                    'absolute left-[calc(50%+1.1rem)] right-[calc(-50%+1.1rem)] top-4 h-0.5 rounded-full transition-colors duration-300 motion-reduce:transition-none',
                    isDone ? 'bg-brand-600 dark:bg-brand-500' : 'bg-stone-200 dark:bg-stone-700',
                  )}
                />
              )}
              <span
                aria-hidden="true"
                className={cx(
                  'grid size-8 place-items-center rounded-full text-sm font-bold transition duration-300 motion-reduce:transition-none',
                  isDone && 'bg-brand-700 text-white dark:bg-brand-500 dark:text-stone-950',
                  isCurrent &&
                    'bg-white text-brand-800 ring-2 ring-brand-600 shadow-sm shadow-brand-700/20 dark:bg-stone-950 dark:text-brand-300 dark:ring-brand-400',
                  !isDone && !isCurrent && 'bg-stone-100 text-stone-500 dark:bg-stone-800 dark:text-stone-400',
                )}
              >
                {isDone ? <CheckIcon className="size-4" strokeWidth={3} /> : item.step}
              </span>
              <span
                className={cx(
                  'max-w-full text-center text-[0.625rem] font-semibold leading-tight tracking-tight min-[400px]:text-[0.6875rem] sm:text-xs sm:tracking-normal',
                  isCurrent ? 'text-stone-900 dark:text-white' : 'text-stone-500 dark:text-stone-400',
                )}
              >
                <span className="sr-only">{`Paso ${item.step}: `}</span>
                {item.label}
                {isDone && <span className="sr-only"> (completado)</span>}
              </span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
