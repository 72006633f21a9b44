import { Radio, RadioGroup } from '@headlessui/react';
import { setThemePreference, type ThemePreference, useThemePreference } from '../../services/theme.ts';
import { cx } from '../../ui/cx.ts';
import { MonitorIcon, MoonIcon, SunIcon } from '../../ui/icons.tsx';

const OPTIONS: ReadonlyArray<{ value: ThemePreference; label: string; icon: typeof SunIcon }> = [
  { value: 'light', label: 'Claro', icon: SunIcon },
  { value: 'system', label: 'Sistema', icon: MonitorIcon },
  { value: 'dark', label: 'Oscuro', icon: MoonIcon },
];

/**
 * Light, system or dark (spec 001 §2, "Configuración de la aplicación"); applies at once.
 * `onChange` hears the choice too (the settings screen also saves it to the account).
 */
export function ThemePicker({
  className,
  onChange,
}: {
  className?: string;
  onChange?: (theme: ThemePreference) => void;
}) {
  const preference = useThemePreference();
  return (
    <RadioGroup
      value={preference}
      onChange={(theme: ThemePreference) => {
        setThemePreference(theme);
        onChange?.(theme);
      }}
      aria-label="Tema"
      className={cx('grid grid-cols-3 gap-2 rounded-2xl bg-stone-100 p-1.5 dark:bg-stone-800', className)}
    >
      {OPTIONS.map((option) => (
        <Radio
          key={option.value}
          value={option.value}
          aria-label={option.label}
          className={cx(
            'flex cursor-pointer flex-col items-center gap-1.5 rounded-xl px-2 py-3 text-sm font-semibold text-stone-700 transition duration-150 motion-reduce:transition-none',
            'hover:text-stone-900 dark:text-stone-300 dark:hover:text-white',
            'data-[checked]:bg-white data-[checked]:text-brand-800 data-[checked]:shadow-sm',
            'dark:data-[checked]:bg-stone-950 dark:data-[checked]:text-brand-300',
            'focus-visible:outline-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-400',
          )}
        >
          <option.icon className="size-5" />
          {option.label}
        </Radio>
      ))}
    </RadioGroup>
  );
}
