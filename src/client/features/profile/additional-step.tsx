/** Profile step 4, «Información Adicional y Fotos» (spec 001 §2): health, diet, social links, photos. */
import type { ReactNode } from 'react';
import {
  DIETARY_PREFERENCE_OPTIONS,
  HEIGHT_MAX_CM,
  HEIGHT_MIN_CM,
  INJURY_OPTIONS,
  WEIGHT_MAX_KG,
  WEIGHT_MIN_KG,
  DEFAULT_HEIGHT_CM,
  DEFAULT_WEIGHT_KG,
} from '#shared/profile/options';
import { LockIcon } from '../../ui/icons.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { ChipGroup, NumberField, StepHeading, SubSection } from './form-parts.tsx';
import { type StepProps, STEP_TITLES } from './step-props.ts';

export function AdditionalStep({
  draft,
  errors,
  onChange,
  photos,
  hasHeading = true,
}: StepProps & { photos: ReactNode; hasHeading?: boolean }) {
  const h = draft.health;
  return (
    <div className="flex flex-col gap-5">
      {hasHeading && (
        <StepHeading title={STEP_TITLES[4]} description="Unos últimos detalles y tus mejores fotos entrenando." />
      )}
      {photos}
      <SubSection title="Salud">
        <p className="-mt-2 text-sm text-stone-600 dark:text-stone-400">
          Todo opcional. Altura y peso solo aparecen en tu perfil si los escribes.
        </p>
        <div className="grid grid-cols-2 gap-4">
          <NumberField
            label="Altura (cm)"
            placeholder={`Ej. ${DEFAULT_HEIGHT_CM}`}
            value={h.height}
            min={HEIGHT_MIN_CM}
            max={HEIGHT_MAX_CM}
            error={errors['health.height']}
            onChange={(value) =>
              onChange((d) => {
                d.health.height = value;
              })
            }
          />
          <NumberField
            label="Peso (kg)"
            placeholder={`Ej. ${DEFAULT_WEIGHT_KG}`}
            value={h.weight}
            min={WEIGHT_MIN_KG}
            max={WEIGHT_MAX_KG}
            error={errors['health.weight']}
            onChange={(value) =>
              onChange((d) => {
                d.health.weight = value;
              })
            }
          />
        </div>
        <ChipGroup
          legend="Lesiones"
          options={INJURY_OPTIONS}
          value={h.injuries}
          onChange={(next) =>
            onChange((d) => {
              d.health.injuries = next;
            })
          }
        />
        <ChipGroup
          legend="Preferencias alimentarias"
          options={DIETARY_PREFERENCE_OPTIONS}
          value={h.dietaryPreferences}
          onChange={(next) =>
            onChange((d) => {
              d.health.dietaryPreferences = next;
            })
          }
        />
        <p
          id="health-visibility"
          className="flex items-start gap-2 rounded-xl bg-white px-3 py-2.5 text-sm text-stone-700 ring-1 ring-stone-900/8 dark:bg-stone-900 dark:text-stone-300 dark:ring-white/10"
        >
          <LockIcon className="mt-0.5 size-4 shrink-0 text-stone-500 dark:text-stone-400" />
          <span>
            <strong className="font-semibold text-stone-900 dark:text-white">Quién lo ve:</strong> tus lesiones y tu
            alimentación solo las verán las personas con las que hagas match (tus entrenamientos). Nunca aparecen en
            Conectar.
          </span>
        </p>
      </SubSection>
      <SocialLinksSection draft={draft} errors={errors} onChange={onChange} />
    </div>
  );
}

/** Room for a pasted profile address; the handle inside it is checked by the shared schema. */
const SOCIAL_INPUT_MAX = 200;

const SOCIAL_FIELDS = [
  {
    network: 'instagram',
    label: 'Usuario de Instagram',
    placeholder: '@tu.usuario',
    hint: 'Tu usuario o el enlace a tu perfil.',
  },
  {
    network: 'spotify',
    label: 'Usuario de Spotify',
    placeholder: 'tu_usuario',
    hint: 'Tu usuario o el enlace a tu perfil de Spotify.',
  },
  {
    network: 'strava',
    label: 'Atleta de Strava',
    placeholder: '12345678',
    hint: 'El número de tu perfil de atleta o su enlace.',
  },
] as const;

/** The optional social links of the profile (spec 001 §3 social; rules in docs/decisions/0014). */
function SocialLinksSection({ draft, errors, onChange }: StepProps) {
  return (
    <SubSection title="Redes sociales (opcional)">
      <p className="-mt-2 text-sm text-stone-600 dark:text-stone-400">
        Se muestran en tu perfil para que tus compañeros puedan seguirte.
      </p>
      {SOCIAL_FIELDS.map((field) => (
        <TextField
          key={field.network}
          label={field.label}
          placeholder={field.placeholder}
          hint={field.hint}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={SOCIAL_INPUT_MAX}
          value={draft.social[field.network]}
          onChange={(event) =>
            onChange((d) => {
              d.social[field.network] = event.target.value;
            })
          }
          error={errors[`social.${field.network}`] ?? (field.network === 'instagram' ? errors.social : undefined)}
        />
      ))}
    </SubSection>
  );
}
