import { Description, Field, Label, Switch as HeadlessSwitch } from '@headlessui/react';
import type { ReactNode } from 'react';
import { cx } from './cx.ts';

export type SwitchProps = {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: ReactNode;
  description?: ReactNode;
  disabled?: boolean;
  className?: string;
};

/** An on/off setting with its label and optional description (role="switch"). */
export function Switch({ checked, onChange, label, description, disabled = false, className }: SwitchProps) {
  return (
    <Field disabled={disabled} className={cx('flex items-center justify-between gap-4', className)}>
      <span className="flex min-w-0 flex-col">
        <Label className="text-[0.9375rem] font-medium text-stone-900 data-[disabled]:opacity-60 dark:text-stone-100">
          {label}
        </Label>
        {description !== undefined && (
          <Description className="text-sm text-stone-600 data-[disabled]:opacity-60 dark:text-stone-400">
            {description}
          </Description>
        )}
      </span>
      <HeadlessSwitch
        checked={checked}
        onChange={onChange}
        className={cx(
          'group relative inline-flex h-7 w-12 shrink-0 cursor-pointer items-center rounded-full p-0.5 transition-colors duration-200 motion-reduce:transition-none',
          'bg-stone-300 data-[checked]:bg-brand-700 dark:bg-stone-600 dark:data-[checked]:bg-brand-500',
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-400',
          'data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50',
        )}
      >
        <span
          aria-hidden="true"
          className="size-6 translate-x-0 rounded-full bg-white shadow-md ring-1 ring-stone-900/5 transition-transform duration-200 ease-out group-data-[checked]:translate-x-5 motion-reduce:transition-none"
        />
      </HeadlessSwitch>
    </Field>
  );
}
