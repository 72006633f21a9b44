import { Description, DialogBackdrop, DialogPanel, DialogTitle, Dialog as HeadlessDialog } from '@headlessui/react';
import type { ReactNode } from 'react';
import { cx } from './cx.ts';
import { CloseIcon } from './icons.tsx';

export type DialogSize = 'sm' | 'md' | 'lg';

export type DialogProps = {
  open: boolean;
  /** Called on Escape, on a click outside and on the close button. */
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons at the foot of the dialog, primary action last. */
  actions?: ReactNode;
  size?: DialogSize;
  /** Hide the corner close button when the actions already offer a way out. */
  hasCloseButton?: boolean;
  /**
   * Focus the title on opening instead of the first field: a long sheet then opens at its top,
   * with its title and hint in view, not scrolled to a field halfway down (issue #34).
   */
  isTitleFocused?: boolean;
};

const SIZES: Record<DialogSize, string> = { sm: 'sm:max-w-sm', md: 'sm:max-w-md', lg: 'sm:max-w-xl' };

/**
 * A modal dialog on Headless UI: focus is trapped inside and returns to the trigger, Escape and a
 * click outside close it. A bottom sheet on phones, a centred card from the `sm` breakpoint.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  actions,
  size = 'md',
  hasCloseButton = true,
  isTitleFocused = false,
}: DialogProps) {
  return (
    <HeadlessDialog open={open} onClose={onClose} className="relative z-50">
      <DialogBackdrop
        transition
        className="fixed inset-0 bg-stone-950/50 backdrop-blur-[2px] transition-opacity duration-200 ease-out data-[closed]:opacity-0 motion-reduce:transition-none"
      />
      {/* The scroller holds a box at least as tall as the screen that aligns the sheet: a flex
          container aligning to its end cuts off the top of content taller than itself, out of
          reach of scrolling (issue #34: the propose sheet opened with its title cut). */}
      <div className="fixed inset-0 w-screen overflow-y-auto">
        <div className="flex min-h-full items-end justify-center sm:items-center sm:p-6">
          <DialogPanel
            transition
            className={cx(
              'relative w-full rounded-t-3xl bg-white px-5 pb-[calc(1.25rem+env(safe-area-inset-bottom))] pt-6 shadow-2xl ring-1 ring-stone-900/5',
              'sm:rounded-3xl sm:p-7 dark:bg-stone-900 dark:ring-white/10',
              'transition duration-200 ease-out data-[closed]:translate-y-6 data-[closed]:opacity-0 sm:data-[closed]:translate-y-0 sm:data-[closed]:scale-95',
              'motion-reduce:transition-none',
              SIZES[size],
            )}
          >
            <div
              className="mx-auto mb-4 h-1.5 w-10 rounded-full bg-stone-200 sm:hidden dark:bg-stone-700"
              aria-hidden="true"
            />
            <DialogTitle
              {...(isTitleFocused ? { tabIndex: -1, 'data-autofocus': true } : {})}
              className={cx(
                'text-lg font-bold text-stone-900 focus:outline-none dark:text-stone-50',
                hasCloseButton && 'pr-10',
              )}
            >
              {title}
            </DialogTitle>
            {description !== undefined && (
              <Description className="mt-1.5 text-[0.9375rem] leading-relaxed text-stone-600 dark:text-stone-300">
                {description}
              </Description>
            )}
            {children !== undefined && <div className="mt-4 text-stone-800 dark:text-stone-200">{children}</div>}
            {actions !== undefined && (
              <div className="mt-6 flex flex-col-reverse gap-2.5 sm:flex-row sm:justify-end">{actions}</div>
            )}
            {hasCloseButton && (
              <button
                type="button"
                onClick={onClose}
                aria-label="Cerrar"
                className="absolute right-3 top-3 grid size-10 place-items-center rounded-full text-stone-600 hover:bg-stone-900/5 hover:text-stone-900 focus-visible:outline-2 focus-visible:outline-brand-600 sm:right-4 sm:top-4 dark:text-stone-400 dark:hover:bg-white/8 dark:hover:text-stone-100 dark:focus-visible:outline-brand-400"
              >
                <CloseIcon />
              </button>
            )}
          </DialogPanel>
        </div>
      </div>
    </HeadlessDialog>
  );
}
