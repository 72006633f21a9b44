import { PASSWORD_RULES, passwordStrength, passwordStrengthLabel } from '#shared/auth/password';
import { cx } from '../../ui/cx.ts';
import { CheckIcon } from '../../ui/icons.tsx';

const BAR_COLORS = ['bg-red-600', 'bg-red-600', 'bg-amber-500', 'bg-amber-500', 'bg-lime-600', 'bg-green-600'] as const;
const LABEL_COLORS = [
  'text-red-700 dark:text-red-400',
  'text-red-700 dark:text-red-400',
  'text-amber-700 dark:text-amber-400',
  'text-amber-700 dark:text-amber-400',
  'text-lime-700 dark:text-lime-400',
  'text-green-700 dark:text-green-400',
] as const;

/** Short names of the rules for the checklist; the full texts are the spec's error messages. */
const RULE_LABELS: Record<string, string> = {
  minLength: 'Al menos 8 caracteres',
  mixedCase: 'Mayúsculas y minúsculas',
  digit: 'Al menos un número',
  special: 'Al menos un carácter especial',
};

/** The strength meter (spec 000 §5: 0-5, Muy débil … Muy fuerte) and the rules, met or not. */
export function PasswordStrength({ password, id }: { password: string; id?: string }) {
  const score = passwordStrength(password);
  const label = passwordStrengthLabel(score);
  const rules = PASSWORD_RULES.filter((rule) => rule.rule in RULE_LABELS);
  return (
    <div id={id} className="flex flex-col gap-3">
      <div className="flex items-center gap-3">
        <div className="grid flex-1 grid-cols-5 gap-1.5" aria-hidden="true">
          {[1, 2, 3, 4, 5].map((segment) => (
            <span
              key={segment}
              className={cx(
                'h-1.5 rounded-full transition-colors duration-200 motion-reduce:transition-none',
                segment <= score ? BAR_COLORS[score] : 'bg-stone-200 dark:bg-stone-700',
              )}
            />
          ))}
        </div>
        <p className="min-w-20 text-right text-sm font-semibold">
          <span className="sr-only">Seguridad de la contraseña: </span>
          <span className={password ? LABEL_COLORS[score] : 'text-stone-500 dark:text-stone-400'}>{label}</span>
        </p>
      </div>
      <ul className="flex flex-col gap-1.5 text-sm">
        {rules.map((rule) => {
          const isMet = rule.test(password);
          return (
            <li
              key={rule.rule}
              className={cx(
                'flex items-center gap-2',
                isMet ? 'text-green-700 dark:text-green-400' : 'text-stone-600 dark:text-stone-400',
              )}
            >
              <span
                aria-hidden="true"
                className={cx(
                  'grid size-4.5 shrink-0 place-items-center rounded-full',
                  isMet
                    ? 'bg-green-600 text-white dark:bg-green-500 dark:text-stone-950'
                    : 'ring-1 ring-inset ring-stone-300 dark:ring-stone-600',
                )}
              >
                {isMet && <CheckIcon className="size-3" strokeWidth={3} />}
              </span>
              <span>
                {RULE_LABELS[rule.rule]}
                <span className="sr-only">{isMet ? ': cumplido' : ': pendiente'}</span>
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
