import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { OwnProfile } from '#shared/profile/profile-views';
import { parseStoredUser, signOut } from '../../services/session.ts';
import { tokenStorage } from '../../services/token-storage.ts';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { cx } from '../../ui/cx.ts';
import { AlertCircleIcon, ArrowLeftIcon, CheckIcon, ChevronRightIcon, LogInIcon } from '../../ui/icons.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { PhotoGrid } from './photo-grid.tsx';
import type { ProfileDraft } from './profile-draft.ts';
import { AdditionalStep } from './additional-step.tsx';
import { GymStep } from './gym-step.tsx';
import { PersonalStep } from './personal-step.tsx';
import { STEP_TITLES } from './step-props.ts';
import { TrainingStep } from './training-step.tsx';
import { wizardStore } from './wizard-store.ts';

const STEPS = [1, 2, 3, 4] as const;

function WizardProgressBar({ step }: { step: number }) {
  return (
    <nav aria-label="Progreso del perfil" className="flex flex-col gap-3">
      <ol className="flex items-center gap-2">
        {STEPS.map((item) => {
          const isDone = item < step;
          const isCurrent = item === step;
          return (
            <li key={item} className="flex flex-1 items-center gap-2" aria-current={isCurrent ? 'step' : undefined}>
              <span
                className={cx(
                  'grid size-8 shrink-0 place-items-center rounded-full text-sm font-bold transition-colors duration-300 motion-reduce:transition-none',
                  isDone && 'bg-brand-700 text-white dark:bg-brand-500 dark:text-stone-950',
                  isCurrent &&
                    'bg-white text-brand-800 ring-2 ring-brand-600 dark:bg-stone-950 dark:text-brand-300 dark:ring-brand-400',
                  !isDone && !isCurrent && 'bg-stone-200 text-stone-600 dark:bg-stone-800 dark:text-stone-400',
                )}
              >
                {isDone ? <CheckIcon className="size-4" strokeWidth={3} /> : item}
                <span className="sr-only">{`Paso ${item}: ${STEP_TITLES[item]}${isDone ? ' (completado)' : ''}`}</span>
              </span>
              {item < 4 && (
                <span
                  aria-hidden="true"
                  className={cx(
                    'h-1 flex-1 rounded-full transition-colors duration-300 motion-reduce:transition-none',
                    isDone ? 'bg-brand-600 dark:bg-brand-500' : 'bg-stone-200 dark:bg-stone-800',
                  )}
                />
              )}
            </li>
          );
        })}
      </ol>
      <p className="text-xs font-semibold uppercase tracking-wide text-stone-600 dark:text-stone-400">
        {`Paso ${step} de 4 · ${STEP_TITLES[step as 1 | 2 | 3 | 4]}`}
      </p>
    </nav>
  );
}

/** After a refused step: the first field in error (or its message) scrolls into view and takes focus. */
function focusFirstError(form: HTMLFormElement | null): boolean {
  const target = form?.querySelector<HTMLElement>('[aria-invalid="true"], [data-field-error]');
  if (!target) return false;
  target.scrollIntoView({ block: 'center' });
  target.focus({ preventScroll: true });
  return true;
}

function savingLabel(phase: string, percent: number): string {
  if (phase === 'location') return 'Obteniendo ubicación...';
  if (phase === 'photos') return `Subiendo fotos... ${percent}%`;
  return 'Guardando perfil...';
}

/** The four-step profile creation shown on /home to users without a profile (spec 001 §2). */
export function ProfileWizard({ userId, onComplete }: { userId: string; onComplete: (profile: OwnProfile) => void }) {
  usePageTitle('Crea tu perfil');
  const snap = useSnapshot(wizardStore.state);
  const draft = snap.draft as ProfileDraft;
  const errors = snap.errors;
  const save = snap.save;
  const isSaving = save.status === 'saving';
  const heading = useRef<HTMLDivElement>(null);
  const form = useRef<HTMLFormElement>(null);
  // A refused "Siguiente" / "Guardar perfil" asks for the first error to take focus once rendered.
  const [focusRequest, setFocusRequest] = useState(0);
  const focusHandled = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the errors may render after the request; try again when they do
  useEffect(() => {
    if (focusRequest === focusHandled.current) return;
    if (focusFirstError(form.current)) focusHandled.current = focusRequest;
  }, [focusRequest, errors, snap.photoError]);

  useEffect(() => {
    const user = parseStoredUser(tokenStorage.readUser());
    void wizardStore.start(userId, { name: user?.name, lastName: user?.lastName });
  }, [userId]);

  useEffect(() => {
    if (save.status === 'done') {
      const profile = save.profile as OwnProfile;
      wizardStore.reset();
      onComplete(profile);
    }
  }, [save, onComplete]);

  const step = snap.step;
  useEffect(() => {
    // Each new step starts at the top with focus on its content, for screen readers too.
    if (step > 0) heading.current?.focus({ preventScroll: true });
    window.scrollTo({ top: 0 });
  }, [step]);

  const stepProps = { draft, errors, onChange: wizardStore.update };
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-5">
      <div className="flex items-center justify-between gap-3">
        <div className="flex flex-col">
          <h1 className="text-2xl font-extrabold tracking-tight text-stone-900 sm:text-3xl dark:text-white">
            <span className="sr-only">Conectar: </span>
            Crea tu perfil
          </h1>
        </div>
        <Button
          variant="ghost"
          size="sm"
          iconStart={<LogInIcon className="size-4.5 rotate-180" />}
          onClick={() => void signOut('user')}
          disabled={isSaving}
        >
          Cerrar sesión
        </Button>
      </div>
      <WizardProgressBar step={snap.step} />
      <form
        noValidate
        className="flex flex-col gap-6 rounded-3xl bg-white p-5 shadow-sm ring-1 ring-stone-900/6 sm:p-7 dark:bg-stone-900 dark:ring-white/8"
        onSubmit={(event) => {
          event.preventDefault();
          void wizardStore.next(userId).then(() => {
            const { errors: found, photoError } = wizardStore.state;
            if (Object.keys(found).length > 0 || photoError) setFocusRequest((count) => count + 1);
          });
        }}
        ref={form}
      >
        <div ref={heading} tabIndex={-1} className="outline-none" aria-busy={snap.restore !== 'ready'}>
          {snap.restore !== 'ready' && (
            <div className="grid min-h-64 place-items-center">
              <Spinner label="Cargando tu borrador..." />
            </div>
          )}
          {snap.restore === 'ready' && snap.step === 1 && <PersonalStep {...stepProps} />}
          {snap.restore === 'ready' && snap.step === 2 && (
            <GymStep {...stepProps} gymSearchOrigin={snap.gymSearchOrigin} />
          )}
          {snap.restore === 'ready' && snap.step === 3 && <TrainingStep {...stepProps} />}
          {snap.restore === 'ready' && snap.step === 4 && (
            <AdditionalStep
              {...stepProps}
              photos={
                <PhotoGrid
                  tiles={snap.photos.map((photo, index) => ({
                    id: photo.id,
                    src: photo.previewUrl,
                    label: `Foto ${index + 1}`,
                  }))}
                  onAdd={wizardStore.addPhotos}
                  onRemove={wizardStore.removePhoto}
                  error={snap.photoError ?? errors.photos}
                  isBusy={isSaving}
                  progress={isSaving && save.phase === 'photos' ? save.percent : null}
                />
              }
            />
          )}
        </div>
        {save.status === 'failed' && (
          <p
            role="alert"
            className="flex items-start gap-2 rounded-2xl bg-red-50 px-4 py-3 text-sm font-medium text-red-800 ring-1 ring-red-200 dark:bg-red-500/10 dark:text-red-300 dark:ring-red-500/30"
          >
            <AlertCircleIcon className="mt-0.5 size-4 shrink-0" />
            {save.message}
          </p>
        )}
        <div className="flex items-center justify-between gap-3 border-t border-stone-200 pt-5 dark:border-stone-800">
          <Button
            variant="secondary"
            onClick={wizardStore.back}
            disabled={snap.step === 1 || isSaving}
            iconStart={<ArrowLeftIcon className="size-4.5" />}
          >
            Atrás
          </Button>
          <Button
            type="submit"
            isLoading={isSaving}
            loadingText={isSaving ? savingLabel(save.phase, save.percent) : undefined}
            iconEnd={snap.step < 4 ? <ChevronRightIcon className="size-4.5" /> : undefined}
          >
            {snap.step < 4 ? 'Siguiente' : 'Guardar perfil'}
          </Button>
        </div>
      </form>
    </div>
  );
}
