import { PASSWORD_RULES, type PasswordRule, passwordStrength, passwordStrengthLabel } from '#shared/auth/password';
import { cx } from './cx.ts';
import { CheckIcon } from './icons.tsx';

const SCORE_COLOURS = [
  'bg-red-600 dark:bg-red-500',
  'bg-red-600 dark:bg-red-500',
  'bg-amber-500 dark:bg-amber-400',
  'bg-amber-500 dark:bg-amber-400',
  'bg-emerald-500 dark:bg-emerald-400',
  'bg-emerald-600 dark:bg-emerald-400',
] as const;

const LABEL_COLOURS = [
  'text-red-700 dark:text-red-400',
  'text-red-700 dark:text-red-400',
  'text-amber-800 dark:text-amber-300',
  'text-amber-800 dark:text-amber-300',
  'text-emerald-700 dark:text-emerald-400',
  'text-emerald-700 dark:text-emerald-400',
] as const;

/** The strength meter of spec 000 §5: five bars and Muy débil, Débil, Media, Fuerte or Muy fuerte. */
export function PasswordStrengthMeter({ password, id }: { password: string; id?: string }) {
  const score = passwordStrength(password);
  const label = passwordStrengthLabel(score);
  return (
    <div id={id} className="flex items-center gap-3">
      {/* biome-ignore lint/a11y/useSemanticElements: five drawn bars; a native <meter> cannot be styled alike */}
      <div
        role="meter"
        aria-label="Seguridad de la contraseña"
        aria-valuemin={0}
        aria-valuemax={5}
        aria-valuenow={score}
        aria-valuetext={label}
        className="grid flex-1 grid-cols-5 gap-1.5"
      >
        {[1, 2, 3, 4, 5].map((bar) => (
          <span
            key={bar}
            className={cx(
              'h-1.5 rounded-full transition-colors duration-200 motion-reduce:transition-none',
              bar <= score ? SCORE_COLOURS[score] : 'bg-stone-200 dark:bg-stone-700',
            )}
          />
        ))}
      </div>
      <span className={cx('w-20 text-right text-sm font-semibold', LABEL_COLOURS[score])}>{label}</span>
    </div>
  );
}

const RULE_LABELS: Partial<Record<PasswordRule, string>> = {
  minLength: 'Al menos 8 caracteres',
  mixedCase: 'Mayúsculas y minúsculas',
  digit: 'Al menos un número',
  special: 'Al menos un carácter especial',
};

/** The composition rules (spec 000 §5) ticking as the password meets them. */
export function PasswordRuleList({ password, id }: { password: string; id?: string }) {
  return (
    <ul id={id} aria-label="Requisitos de la contraseña" className="grid gap-1.5 text-sm sm:grid-cols-2">
      {PASSWORD_RULES.filter((rule) => RULE_LABELS[rule.rule] !== undefined).map((rule) => {
        const isMet = rule.test(password);
        return (
          <li
            key={rule.rule}
            className={cx(
              'flex items-center gap-2 transition-colors duration-150 motion-reduce:transition-none',
              isMet ? 'text-emerald-700 dark:text-emerald-400' : 'text-stone-600 dark:text-stone-400',
            )}
          >
            <span
              aria-hidden="true"
              className={cx(
                'grid size-4.5 shrink-0 place-items-center rounded-full text-[0.625rem] font-black',
                isMet
                  ? 'bg-emerald-600 text-white dark:bg-emerald-500 dark:text-stone-950'
                  : 'ring-1.5 ring-inset ring-stone-300 dark:ring-stone-600',
              )}
            >
              {isMet && <CheckIcon className="size-3" strokeWidth={3} />}
            </span>
            {RULE_LABELS[rule.rule]}
            <span className="sr-only">{isMet ? ': cumplido' : ': pendiente'}</span>
          </li>
        );
      })}
    </ul>
  );
}

/** The meter above the rule list, as the registration wizard's password step shows them. */
export function PasswordStrength({ password, id }: { password: string; id?: string }) {
  return (
    <div id={id} className="flex flex-col gap-3">
      <PasswordStrengthMeter password={password} />
      <PasswordRuleList password={password} />
    </div>
  );
}
