import type { FormEvent, ReactNode } from 'react';
import { Button } from '../../ui/button.tsx';
import { cx } from '../../ui/cx.ts';
import { AlertCircleIcon, ArrowLeftIcon, ArrowRightIcon } from '../../ui/icons.tsx';
import { formatCountdown } from './countdown.ts';
import { CountdownAnnouncer } from './countdown-announcer.tsx';
import { phoneFieldHint } from './phone-field.ts';

/** A step's frame: its heading and intro, its fields, and the navigation row at the foot. */
export function StepForm({
  title,
  intro,
  onSubmit,
  children,
  footer,
}: {
  title: string;
  intro?: ReactNode;
  onSubmit: () => void;
  children: ReactNode;
  footer: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-6">
      <div>
        <h2 className="text-xl font-bold tracking-tight text-stone-900 dark:text-white">{title}</h2>
        {intro !== undefined && (
          <p className="mt-1.5 text-pretty text-[0.9375rem] leading-relaxed text-stone-600 dark:text-stone-300">
            {intro}
          </p>
        )}
      </div>
      <div className="flex flex-col gap-5">{children}</div>
      {footer}
    </form>
  );
}

/** Back on the left (when there is one), the forward action on the right. */
export function StepNavigation({
  onBack,
  isBackDisabled,
  forward,
}: {
  onBack?: () => void;
  isBackDisabled?: boolean;
  forward?: ReactNode;
}) {
  return (
    <div className={cx('flex items-center gap-3 pt-1', onBack ? 'justify-between' : 'justify-end')}>
      {onBack && (
        <Button
          variant="secondary"
          onClick={onBack}
          disabled={isBackDisabled}
          iconStart={<ArrowLeftIcon className="size-4.5" />}
        >
          Atrás
        </Button>
      )}
      {forward}
    </div>
  );
}

/** The forward arrow: a submit button of the step's form. */
export function ForwardButton({
  children = 'Siguiente',
  isLoading,
  loadingText,
  disabled,
}: {
  children?: ReactNode;
  isLoading?: boolean;
  loadingText?: string;
  disabled?: boolean;
}) {
  return (
    <Button
      type="submit"
      isLoading={isLoading}
      loadingText={loadingText}
      disabled={disabled}
      iconEnd={<ArrowRightIcon className="size-4.5" />}
      className="min-w-36"
    >
      {children}
    </Button>
  );
}

/** An error about the whole step (not one field), announced at once. */
export function FormAlert({ message }: { message: string | undefined }) {
  return (
    <div aria-live="assertive" aria-atomic="true">
      {message && (
        <p className="flex items-start gap-2.5 whitespace-pre-line rounded-2xl bg-red-50 p-3.5 text-sm font-medium leading-relaxed text-red-800 ring-1 ring-inset ring-red-200 dark:bg-red-500/10 dark:text-red-300 dark:ring-red-500/25">
          <AlertCircleIcon className="mt-0.5 size-4.5 shrink-0" />
          <span>{message}</span>
        </p>
      )}
    </div>
  );
}

/** The message under the code boxes (the wizard's code step and the Google modal). */
export function CodeError({ id, message }: { id: string; message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p
      id={id}
      className="flex items-start gap-1.5 whitespace-pre-line text-sm font-medium text-red-700 dark:text-red-400"
    >
      <AlertCircleIcon className="mt-0.5 size-4 shrink-0" />
      <span>{message}</span>
    </p>
  );
}

/** "Podrás reenviar el código en m:ss", then the "Reenviar código" button; announced to screen readers. */
export function ResendCode({
  secondsLeft,
  isResending,
  onResend,
}: {
  secondsLeft: number;
  isResending: boolean;
  onResend: () => void;
}) {
  return (
    <>
      <div className="flex min-h-10 items-center justify-center text-sm">
        {secondsLeft > 0 ? (
          <p className="text-stone-600 dark:text-stone-400">
            Podrás reenviar el código en{' '}
            <span className="font-semibold tabular-nums text-stone-900 dark:text-white">
              {formatCountdown(secondsLeft)}
            </span>
          </p>
        ) : (
          <Button variant="ghost" size="sm" onClick={onResend} isLoading={isResending} loadingText="Enviando código...">
            Reenviar código
          </Button>
        )}
      </div>
      <CountdownAnnouncer secondsLeft={secondsLeft} />
    </>
  );
}

/** The phone field's live hint (issue #20): the format, why the number cannot be verified yet, or where the code goes. */
export function PhoneHintText({ typed, emptyHint }: { typed: string; emptyHint: string }) {
  const hint = phoneFieldHint(typed, emptyHint);
  return (
    <span data-testid="phone-hint" className={cx(hint.isProblem && 'font-medium text-amber-800 dark:text-amber-300')}>
      {hint.text}
    </span>
  );
}
