import type { FieldErrors } from '#shared/profile/profile-wizard';
import type { ProfileDraft } from './profile-draft.ts';

export type StepProps = {
  draft: ProfileDraft;
  errors: FieldErrors;
  onChange: (recipe: (draft: ProfileDraft) => void) => void;
};

export const STEP_TITLES = {
  1: 'Datos Personales',
  2: 'Información del Gimnasio',
  3: 'Preferencias de Entrenamiento',
  4: 'Información Adicional y Fotos',
} as const;
