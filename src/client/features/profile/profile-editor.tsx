import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { Button } from '../../ui/button.tsx';
import { AlertCircleIcon, CheckCircleIcon } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StatusPage } from '../../ui/status-page.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import {
  addEditorPhotos,
  editorState,
  moveEditorPhoto,
  removeEditorPhoto,
  saveEditor,
  refreshEditing,
  updateDraft,
} from './editor-store.ts';
import { loadOwnProfile, ownProfileState } from './own-profile-store.ts';
import { PhotoGrid } from './photo-grid.tsx';
import type { ProfileDraft } from './profile-draft.ts';
import { AdditionalStep } from './additional-step.tsx';
import { GymStep } from './gym-step.tsx';
import { PersonalStep } from './personal-step.tsx';
import { STEP_TITLES } from './step-props.ts';
import { TrainingStep } from './training-step.tsx';

const CARD =
  'flex scroll-mt-24 flex-col gap-5 rounded-3xl bg-white p-5 shadow-sm ring-1 ring-stone-900/6 sm:p-7 dark:bg-stone-900 dark:ring-white/8';

function SectionTitle({ id, children }: { id: string; children: string }) {
  return (
    <h2 id={id} className="text-lg font-extrabold tracking-tight text-stone-900 dark:text-white">
      {children}
    </h2>
  );
}

/** /edit-profile: the wizard's four parts on one page, photos managed in place (spec 001 §2). */
export function ProfileEditor({ userId }: { userId: string }) {
  usePageTitle('Editar perfil');
  const own = useSnapshot(ownProfileState);
  const snap = useSnapshot(editorState);
  const current = own.current;

  useEffect(() => {
    void loadOwnProfile(userId);
  }, [userId]);

  const readyProfile = current.status === 'ready' ? current.profile : null;
  useEffect(() => {
    if (readyProfile) refreshEditing(readyProfile as never);
  }, [readyProfile]);

  if (current.status === 'loading' || (current.status === 'ready' && snap.profileId !== current.profile.id)) {
    return (
      <div className="grid min-h-[60dvh] place-items-center">
        <Spinner size="lg" label="Cargando perfil..." />
      </div>
    );
  }
  if (current.status === 'missing') {
    return (
      <StatusPage
        icon={<AlertCircleIcon className="size-7" />}
        title="Todavía no tienes perfil"
        description="Créalo desde Conectar para poder editarlo."
      />
    );
  }
  if (current.status === 'error') {
    return (
      <StatusPage
        icon={<AlertCircleIcon className="size-7" />}
        title="Error al obtener el perfil"
        description={current.message}
        actions={<Button onClick={() => void loadOwnProfile(userId)}>Reintentar</Button>}
      />
    );
  }

  const draft = snap.draft as ProfileDraft;
  // The stored position is already the snapped one (QUALITY 9).
  const { latitude, longitude } = current.profile.location;
  const gymSearchOrigin = { latitude, longitude };
  const stepProps = { draft, errors: snap.errors, onChange: updateDraft, hasHeading: false };
  const isSaving = snap.save.status === 'saving';
  const photoWork = snap.photoWork;
  return (
    <form
      noValidate
      className="mx-auto flex w-full max-w-2xl flex-col gap-5 pb-28"
      onSubmit={(event) => {
        event.preventDefault();
        void saveEditor().then((step) => {
          if (step !== null) document.getElementById(`seccion-${step}`)?.scrollIntoView({ behavior: 'smooth' });
        });
      }}
    >
      <h1 className="text-2xl font-extrabold tracking-tight text-stone-900 sm:text-3xl dark:text-white">
        Editar perfil
      </h1>
      <section className={CARD} aria-label="Fotos" id="seccion-4">
        <PhotoGrid
          tiles={snap.photoKeys.map((key, index) => ({ id: key, src: key, label: `Foto ${index + 1}` }))}
          onAdd={(files) => void addEditorPhotos(files)}
          onRemove={(key) => void removeEditorPhoto(key)}
          onMove={(key, offset) => void moveEditorPhoto(key, offset)}
          error={snap.photoError ?? snap.errors.photos}
          isBusy={photoWork.status !== 'idle'}
          progress={photoWork.status === 'uploading' ? photoWork.percent : null}
        />
      </section>
      <section className={CARD} aria-labelledby="titulo-1" id="seccion-1">
        <SectionTitle id="titulo-1">{STEP_TITLES[1]}</SectionTitle>
        <PersonalStep {...stepProps} />
      </section>
      <section className={CARD} aria-labelledby="titulo-2" id="seccion-2">
        <SectionTitle id="titulo-2">{STEP_TITLES[2]}</SectionTitle>
        <GymStep {...stepProps} gymSearchOrigin={gymSearchOrigin} />
      </section>
      <section className={CARD} aria-labelledby="titulo-3" id="seccion-3">
        <SectionTitle id="titulo-3">{STEP_TITLES[3]}</SectionTitle>
        <TrainingStep {...stepProps} />
      </section>
      <section className={CARD} aria-labelledby="titulo-4">
        <SectionTitle id="titulo-4">Información Adicional</SectionTitle>
        <AdditionalStep {...stepProps} photos={null} />
      </section>
      <div className="fixed inset-x-0 bottom-[calc(4.5rem+env(safe-area-inset-bottom))] z-20 px-4 lg:bottom-6 lg:left-64 xl:left-72">
        <div className="mx-auto flex max-w-2xl items-center justify-between gap-3 rounded-2xl bg-white/95 p-3 shadow-lg ring-1 ring-stone-900/10 backdrop-blur dark:bg-stone-900/95 dark:ring-white/10">
          <p className="min-w-0 text-sm font-medium" aria-live="polite">
            {snap.save.status === 'saved' && (
              <span className="flex items-center gap-1.5 text-emerald-700 dark:text-emerald-400">
                <CheckCircleIcon className="size-4" /> Perfil actualizado
              </span>
            )}
            {snap.save.status === 'failed' && (
              <span role="alert" className="flex items-center gap-1.5 text-red-700 dark:text-red-400">
                <AlertCircleIcon className="size-4 shrink-0" /> {snap.save.message}
              </span>
            )}
            {snap.save.status === 'idle' && Object.keys(snap.errors).length > 0 && (
              <span role="alert" className="flex items-center gap-1.5 text-red-700 dark:text-red-400">
                <AlertCircleIcon className="size-4 shrink-0" /> Revisa los campos marcados
              </span>
            )}
          </p>
          <Button type="submit" isLoading={isSaving} loadingText="Guardando..." disabled={photoWork.status !== 'idle'}>
            Guardar cambios
          </Button>
        </div>
      </div>
    </form>
  );
}
