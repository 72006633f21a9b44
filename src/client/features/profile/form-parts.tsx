import { type ReactNode, useId } from 'react';
import type { Option } from '#shared/profile/options';
import { cx } from '../../ui/cx.ts';
import { AlertCircleIcon } from '../../ui/icons.tsx';
import { TextField } from '../../ui/text-field.tsx';

export function FieldError({ id, message }: { id?: string; message: string | undefined }) {
  if (!message) return null;
  return (
    // Focusable, so a refused "Siguiente" or "Guardar perfil" can take the person to it (issue #20).
    <p
      id={id}
      tabIndex={-1}
      data-field-error
      className="flex scroll-mt-24 items-start gap-1.5 text-sm font-medium text-red-700 outline-none dark:text-red-400"
    >
      <AlertCircleIcon className="mt-0.5 size-4 shrink-0" />
      <span>{message}</span>
    </p>
  );
}

const CHIP =
  'inline-flex min-h-10 items-center gap-1.5 rounded-full px-3.5 text-sm font-semibold ring-1 ring-inset transition-colors duration-150 ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 motion-reduce:transition-none dark:focus-visible:outline-brand-400';
const CHIP_ON = 'bg-brand-700 text-white ring-brand-700 dark:bg-brand-500 dark:text-stone-950 dark:ring-brand-500';
const CHIP_OFF =
  'bg-white text-stone-800 ring-stone-300 hover:bg-stone-50 dark:bg-stone-900 dark:text-stone-100 dark:ring-stone-700 dark:hover:bg-stone-800';

type GroupProps<V extends string> = {
  legend: ReactNode;
  hint?: ReactNode;
  options: readonly Option<V>[];
  error?: string;
  isRequired?: boolean;
};

/** Toggle chips for a list field (sports, goals…); each chip is a button with aria-pressed. */
export function ChipGroup<V extends string>({
  legend,
  hint,
  options,
  value,
  onChange,
  error,
  isRequired,
}: GroupProps<V> & { value: readonly string[]; onChange: (next: string[]) => void }) {
  const errorId = useId();
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={error ? errorId : undefined}>
      <legend className="mb-2 text-sm font-semibold text-stone-800 dark:text-stone-200">
        {legend}
        {isRequired && <span className="text-brand-700 dark:text-brand-400"> *</span>}
        {hint && <span className="ml-1 font-normal text-stone-600 dark:text-stone-400">{hint}</span>}
      </legend>
      <div className="flex flex-wrap gap-2">
        {options.map((option) => {
          const isOn = value.includes(option.value);
          return (
            <button
              key={option.value}
              type="button"
              aria-pressed={isOn}
              onClick={() => onChange(isOn ? value.filter((item) => item !== option.value) : [...value, option.value])}
              className={cx(CHIP, isOn ? CHIP_ON : CHIP_OFF)}
            >
              {option.label}
            </button>
          );
        })}
      </div>
      <FieldError id={errorId} message={error} />
    </fieldset>
  );
}

/** One choice among chips (a radio group); `allowNone` lets the chosen one be unset. */
export function ChoiceGroup<V extends string>({
  legend,
  hint,
  options,
  value,
  onChange,
  error,
  allowNone = true,
}: GroupProps<V> & { value: V | null | ''; onChange: (next: V | null) => void; allowNone?: boolean }) {
  const errorId = useId();
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={error ? errorId : undefined}>
      <legend className="mb-2 text-sm font-semibold text-stone-800 dark:text-stone-200">
        {legend}
        {hint && <span className="ml-1 font-normal text-stone-600 dark:text-stone-400">{hint}</span>}
      </legend>
      <div className="flex flex-wrap gap-2">
        {options.map((option) => {
          const isOn = value === option.value;
          return (
            <button
              key={option.value}
              type="button"
              aria-pressed={isOn}
              onClick={() => onChange(isOn && allowNone ? null : option.value)}
              className={cx(CHIP, isOn ? CHIP_ON : CHIP_OFF)}
            >
              {option.label}
            </button>
          );
        })}
      </div>
      <FieldError id={errorId} message={error} />
    </fieldset>
  );
}

/** A labelled multi-line text field with a character counter. */
export function TextAreaField({
  label,
  value,
  onChange,
  error,
  maxLength,
  placeholder,
  hint,
}: {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  maxLength: number;
  placeholder?: string;
  hint?: ReactNode;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-stone-800 dark:text-stone-200">
          {label}
        </label>
        <span className="text-xs tabular-nums text-stone-600 dark:text-stone-400" aria-hidden="true">
          {`${value.length}/${maxLength}`}
        </span>
      </div>
      <textarea
        id={id}
        value={value}
        rows={4}
        maxLength={maxLength}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={cx(hint ? `${id}-hint` : undefined, error ? `${id}-error` : undefined) || undefined}
        className={cx(
          'min-h-28 w-full resize-y rounded-xl bg-white px-3.5 py-3 text-base text-stone-900 outline-none ring-1 ring-inset focus:ring-2 dark:bg-stone-900 dark:text-stone-50',
          'placeholder:text-stone-500 dark:placeholder:text-stone-400',
          error
            ? 'ring-red-600 dark:ring-red-400'
            : 'ring-stone-300 focus:ring-brand-600 dark:ring-stone-700 dark:focus:ring-brand-400',
        )}
      />
      {hint && (
        <p id={`${id}-hint`} className="text-sm text-stone-600 dark:text-stone-400">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** Reads a number input: an empty or partial entry becomes NaN, which the validators refuse. */
export function readNumber(value: string): number {
  return value.trim() === '' ? Number.NaN : Number(value);
}

/** Shows NaN as an empty input. */
export function showNumber(value: number): string {
  return Number.isFinite(value) ? String(value) : '';
}

export function StepHeading({ title, description }: { title: string; description: string }) {
  return (
    <header className="flex flex-col gap-1">
      <h2 className="text-xl font-extrabold tracking-tight text-stone-900 sm:text-2xl dark:text-white">{title}</h2>
      <p className="text-[0.9375rem] text-stone-600 dark:text-stone-300">{description}</p>
    </header>
  );
}

export function SubSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-5 rounded-2xl bg-stone-50 p-4 ring-1 ring-stone-900/5 sm:p-5 dark:bg-stone-950/40 dark:ring-white/6">
      <h3 className="text-sm font-bold uppercase tracking-wide text-stone-600 dark:text-stone-400">{title}</h3>
      {children}
    </section>
  );
}

/** Availability as a week grid: one row per day, a toggle for mañana and one for tarde. */
export function AvailabilityGrid({
  legend,
  days,
  parts,
  value,
  onChange,
  error,
}: {
  legend: ReactNode;
  days: readonly string[];
  parts: readonly string[];
  value: readonly string[];
  onChange: (next: string[]) => void;
  error?: string;
}) {
  const errorId = useId();
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={error ? errorId : undefined}>
      <legend className="mb-2 text-sm font-semibold text-stone-800 dark:text-stone-200">
        {legend}
        <span className="text-brand-700 dark:text-brand-400"> *</span>
      </legend>
      <div className="grid grid-cols-[minmax(0,1fr)_auto_auto] items-center sm:grid-cols-[8rem_auto_auto] sm:justify-start gap-x-2 gap-y-1.5">
        {days.map((day) => (
          <div key={day} className="contents">
            <span className="text-sm font-medium text-stone-700 dark:text-stone-300" aria-hidden="true">
              {day}
            </span>
            {parts.map((part) => {
              const slot = `${day} ${part}`;
              const isOn = value.includes(slot);
              return (
                <button
                  key={slot}
                  type="button"
                  aria-pressed={isOn}
                  aria-label={slot}
                  onClick={() => onChange(isOn ? value.filter((item) => item !== slot) : [...value, slot])}
                  className={cx(CHIP, 'justify-center px-3 capitalize sm:min-w-24', isOn ? CHIP_ON : CHIP_OFF)}
                >
                  {part}
                </button>
              );
            })}
          </div>
        ))}
      </div>
      <FieldError id={errorId} message={error} />
    </fieldset>
  );
}

/** A number input that keeps an empty field empty while typing (its value reads as 0). */
export function NumberField({
  label,
  value,
  min,
  max,
  error,
  suffix,
  placeholder,
  onChange,
}: {
  label: string;
  placeholder?: string;
  value: number;
  min: number;
  max: number;
  error?: string;
  suffix?: ReactNode;
  onChange: (value: number) => void;
}) {
  return (
    <TextField
      label={label}
      type="number"
      inputMode="numeric"
      min={min}
      max={max}
      value={showNumber(value)}
      placeholder={placeholder}
      onChange={(event) => onChange(readNumber(event.target.value))}
      error={error}
      prefix={suffix}
    />
  );
}
