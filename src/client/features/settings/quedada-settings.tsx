import { useId } from 'react';
import { REMINDER_MINUTES_OPTIONS } from '#shared/quedadas/quedada-schemas';
import type { Settings, SettingsPatch } from '#shared/settings/settings-schema';
import { Switch } from '../../ui/switch.tsx';

const REMINDER_LABELS: Record<(typeof REMINDER_MINUTES_OPTIONS)[number], string> = {
  30: '30 minutos antes',
  60: '1 hora antes',
  120: '2 horas antes',
  360: '6 horas antes',
  1440: '1 día antes',
};

/** The quedadas' reminder time (in the notifications section of /config). */
export function QuedadaReminderField({
  settings,
  update,
}: {
  settings: Settings;
  update: (patch: SettingsPatch) => Promise<unknown>;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="text-[0.9375rem] font-medium text-stone-900 dark:text-stone-100">
        Aviso de las quedadas
      </label>
      <select
        id={id}
        value={settings.quedadas.reminderMinutes}
        onChange={(event) =>
          void update({
            quedadas: { reminderMinutes: Number(event.target.value) as (typeof REMINDER_MINUTES_OPTIONS)[number] },
          })
        }
        className="mt-1.5 h-11 w-full rounded-xl border-0 bg-white px-3 text-[0.9375rem] text-stone-900 ring-1 ring-inset ring-stone-300 focus:ring-2 focus:ring-brand-600 dark:bg-stone-800 dark:text-stone-50 dark:ring-stone-700"
      >
        {REMINDER_MINUTES_OPTIONS.map((minutes) => (
          <option key={minutes} value={minutes}>
            {REMINDER_LABELS[minutes]}
          </option>
        ))}
      </select>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Te avisamos antes de cada entreno que hayas aceptado.
      </p>
    </div>
  );
}

/** Whether matches see "8 de 9 quedadas cumplidas" (in the privacy section of /config). */
export function QuedadaReliabilitySwitch({
  settings,
  update,
}: {
  settings: Settings;
  update: (patch: SettingsPatch) => Promise<unknown>;
}) {
  return (
    <Switch
      checked={settings.quedadas.showReliability}
      onChange={(showReliability) => void update({ quedadas: { showReliability } })}
      label="Mostrar mis quedadas cumplidas"
      description="Tus matches ven cuántas quedadas has cumplido (por ejemplo, «8 de 9 quedadas cumplidas»)."
    />
  );
}
