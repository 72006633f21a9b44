/** Profile step 1, «Datos Personales» (spec 001 §2): who the person is. */
import { BIO_MAX, GENDER_OPTIONS, LAST_NAME_MAX, MIN_AGE, MIN_BIRTH_DATE, NAME_MAX } from '#shared/profile/options';
import { TextField } from '../../ui/text-field.tsx';
import { ChoiceGroup, StepHeading, TextAreaField } from './form-parts.tsx';
import { type StepProps, STEP_TITLES } from './step-props.ts';

/** The latest birth date the picker allows: exactly MIN_AGE years before today (local calendar). */
export function latestBirthDate(today: Date = new Date()): string {
  const year = today.getFullYear() - MIN_AGE;
  const month = String(today.getMonth() + 1).padStart(2, '0');
  const day = String(today.getDate()).padStart(2, '0');
  // 29 February of a leap year maps to 28 February 18 years earlier when that year has none.
  const candidate = `${year}-${month}-${day}`;
  return Number.isNaN(Date.parse(candidate)) || (month === '02' && day === '29' && year % 4 !== 0)
    ? `${year}-02-28`
    : candidate;
}

export function PersonalStep({ draft, errors, onChange, hasHeading = true }: StepProps & { hasHeading?: boolean }) {
  return (
    <div className="flex flex-col gap-5">
      {hasHeading && (
        <StepHeading title={STEP_TITLES[1]} description="Cuéntanos quién eres para que otros te conozcan." />
      )}
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label="Nombre"
          autoComplete="given-name"
          value={draft.name}
          maxLength={NAME_MAX}
          onChange={(event) =>
            onChange((d) => {
              d.name = event.target.value;
            })
          }
          error={errors.name}
          required
        />
        <TextField
          label="Apellido (opcional)"
          autoComplete="family-name"
          value={draft.lastName}
          maxLength={LAST_NAME_MAX}
          onChange={(event) =>
            onChange((d) => {
              d.lastName = event.target.value;
            })
          }
          error={errors.lastName}
        />
      </div>
      <TextField
        label="Fecha de nacimiento"
        type="date"
        min={MIN_BIRTH_DATE}
        max={latestBirthDate()}
        value={draft.birthDate}
        onChange={(event) =>
          onChange((d) => {
            d.birthDate = event.target.value;
          })
        }
        error={errors.birthDate}
        hint="Debes tener al menos 18 años."
        required
      />
      <TextAreaField
        label="Bio"
        value={draft.bio}
        maxLength={BIO_MAX}
        placeholder="Me encanta entrenar por las mañanas y busco alguien con quien motivarme…"
        onChange={(value) =>
          onChange((d) => {
            d.bio = value;
          })
        }
        error={errors.bio}
        hint="Entre 10 y 500 caracteres."
      />
      <ChoiceGroup
        legend="Género"
        hint="(opcional)"
        options={GENDER_OPTIONS}
        value={draft.gender}
        onChange={(value) =>
          onChange((d) => {
            d.gender = value ?? '';
          })
        }
        error={errors.gender}
      />
    </div>
  );
}
