import { Link } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState } from 'react';
import { cx } from '../../ui/cx.ts';
import { InfoIcon } from '../../ui/icons.tsx';
import { textLinkClasses } from '../../ui/link-classes.ts';

const WHY_READ =
  'Te recomendamos leerlos antes de registrarte: explican qué datos guardamos, para qué los usamos, quién puede verlos y cómo puedes borrarlos.';

/**
 * The links to the terms and the privacy policy with a tooltip saying why to read them
 * (spec 000 §2). The tooltip opens on hover and on keyboard focus, and closes with Escape.
 */
export function TermsNotice() {
  const tooltipId = useId();
  const [isOpen, setIsOpen] = useState(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // A short grace period lets the pointer travel from the button onto the tooltip (WCAG 1.4.13).
  const open = () => {
    clearTimeout(closeTimer.current);
    setIsOpen(true);
  };
  const closeSoon = () => {
    clearTimeout(closeTimer.current);
    closeTimer.current = setTimeout(() => setIsOpen(false), 200);
  };
  useEffect(() => () => clearTimeout(closeTimer.current), []);
  return (
    <div className="relative text-center text-sm leading-relaxed text-stone-600 dark:text-stone-300">
      <p>
        Al registrarte aceptas los{' '}
        <Link to="/terms" className={textLinkClasses}>
          Términos y condiciones
        </Link>{' '}
        y la{' '}
        <Link to="/privacy" className={textLinkClasses}>
          Política de privacidad
        </Link>
        .{' '}
        <button
          type="button"
          aria-describedby={tooltipId}
          aria-expanded={isOpen}
          onMouseEnter={open}
          onMouseLeave={closeSoon}
          onFocus={open}
          onBlur={() => setIsOpen(false)}
          onClick={() => setIsOpen((value) => !value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') setIsOpen(false);
          }}
          className="inline-flex items-center gap-1 whitespace-nowrap rounded font-semibold text-stone-700 underline decoration-dotted underline-offset-4 hover:text-stone-950 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 dark:text-stone-200 dark:hover:text-white dark:focus-visible:outline-brand-400"
        >
          <InfoIcon className="size-4" />
          ¿Por qué leerlos?
        </button>
      </p>
      {/* Always in the DOM so aria-describedby reads it; shown while hovered or focused. */}
      <div
        id={tooltipId}
        role="tooltip"
        onMouseEnter={open}
        onMouseLeave={closeSoon}
        className={cx(
          'absolute inset-x-0 bottom-full z-10 mx-auto mb-2 max-w-xs rounded-xl bg-stone-900 px-3.5 py-2.5 text-left text-[0.8125rem] leading-snug text-white shadow-lg transition-opacity duration-150 motion-reduce:transition-none dark:bg-stone-100 dark:text-stone-900',
          isOpen ? 'visible opacity-100' : 'invisible opacity-0',
        )}
      >
        {WHY_READ}
      </div>
    </div>
  );
}
