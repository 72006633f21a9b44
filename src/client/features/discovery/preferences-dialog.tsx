import { useEffect, useState } from 'react';
import { AGE_RANGE_MAX, AGE_RANGE_MIN, DISTANCE_MAX_KM, DISTANCE_MIN_KM } from '#shared/profile/options';
import { PROFILE_MESSAGES } from '#shared/profile/profile-messages';
import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { type SearchPreferences, savePreferences } from './discovery-api.ts';

export const PREFERENCES_FAILED = 'Error al actualizar preferencias';

type Errors = { min?: string; max?: string; distance?: string };

/** §5: minimum ≥ 18 and ≤ maximum; maximum ≤ 99 and ≥ minimum; distance ≥ 1. */
export function preferencesErrors(min: number, max: number, distance: number): Errors {
  const errors: Errors = {};
  if (!Number.isInteger(min) || min < AGE_RANGE_MIN || min > AGE_RANGE_MAX) errors.min = PROFILE_MESSAGES.ageRangeMin;
  if (!Number.isInteger(max) || max < AGE_RANGE_MIN || max > AGE_RANGE_MAX) errors.max = PROFILE_MESSAGES.ageRangeMax;
  if (!errors.min && !errors.max && min > max) errors.min = PROFILE_MESSAGES.ageRangeOrder;
  if (!Number.isInteger(distance) || distance < DISTANCE_MIN_KM) errors.distance = PROFILE_MESSAGES.distanceMin;
  else if (distance > DISTANCE_MAX_KM) errors.distance = PROFILE_MESSAGES.distanceMax;
  return errors;
}

const toNumber = (value: string) => (value.trim() === '' ? Number.NaN : Number(value));

/** "Ajustar Preferencias": age range and distance, saved on the profile (spec 001 §2). */
export function PreferencesDialog({
  open,
  userId,
  initial,
  onClose,
  onSaved,
}: {
  open: boolean;
  userId: string;
  initial: SearchPreferences;
  onClose: () => void;
  onSaved: (preferences: SearchPreferences) => void;
}) {
  const [min, setMin] = useState(String(initial.age_range.min));
  const [max, setMax] = useState(String(initial.age_range.max));
  const [distance, setDistance] = useState(String(initial.distance));
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setMin(String(initial.age_range.min));
    setMax(String(initial.age_range.max));
    setDistance(String(initial.distance));
    setErrors({});
    setFailure(null);
  }, [open, initial.age_range.min, initial.age_range.max, initial.distance]);

  async function submit() {
    const values = { min: toNumber(min), max: toNumber(max), distance: toNumber(distance) };
    const found = preferencesErrors(values.min, values.max, values.distance);
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return;
    setIsSaving(true);
    try {
      const saved = await savePreferences(userId, {
        age_range: { min: values.min, max: values.max },
        distance: values.distance,
      });
      onSaved(saved);
    } catch {
      setFailure(PREFERENCES_FAILED);
    } finally {
      setIsSaving(false);
    }
  }

  return (
    <Dialog
      open={open}
      onClose={() => !isSaving && onClose()}
      title="Ajustar Preferencias"
      description="Amplía la edad o la distancia para ver más compañeros."
      actions={
        <>
          <Button variant="secondary" onClick={onClose} disabled={isSaving}>
            Cancelar
          </Button>
          <Button type="submit" form="preferencias-busqueda" isLoading={isSaving} loadingText="Guardando...">
            Guardar cambios
          </Button>
        </>
      }
    >
      <form
        id="preferencias-busqueda"
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <div className="grid grid-cols-2 gap-3">
          <TextField
            label="Edad mínima"
            type="number"
            inputMode="numeric"
            min={AGE_RANGE_MIN}
            max={AGE_RANGE_MAX}
            value={min}
            onChange={(event) => setMin(event.target.value)}
            error={errors.min}
          />
          <TextField
            label="Edad máxima"
            type="number"
            inputMode="numeric"
            min={AGE_RANGE_MIN}
            max={AGE_RANGE_MAX}
            value={max}
            onChange={(event) => setMax(event.target.value)}
            error={errors.max}
          />
        </div>
        <TextField
          label="Distancia máxima (km)"
          type="number"
          inputMode="numeric"
          min={DISTANCE_MIN_KM}
          max={DISTANCE_MAX_KM}
          value={distance}
          onChange={(event) => setDistance(event.target.value)}
          error={errors.distance}
        />
        {failure && (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
            {failure}
          </p>
        )}
      </form>
    </Dialog>
  );
}
