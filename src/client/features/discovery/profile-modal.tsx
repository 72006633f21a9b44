import { type ReactNode, useEffect, useState } from 'react';
import type { SwipeAction } from '#shared/discovery/discovery-schemas';
import type { PublicProfile } from '#shared/profile/profile-views';
import { ApiRequestError } from '../../services/http.ts';
import { Dialog } from '../../ui/dialog.tsx';
import { AlertCircleIcon, MapPinIcon, ShieldCheckIcon, SparklesIcon } from '../../ui/icons.tsx';
import { PhotoViewer } from '../../ui/photo-viewer.tsx';
import { SafeImage } from '../../ui/safe-image.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { DecisionButtons } from './decision-buttons.tsx';
import { fetchPublicProfile } from './discovery-api.ts';
import { labels, socialLinks } from './profile-text.ts';

function Block({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-3 border-t border-stone-200 pt-4 dark:border-stone-800">
      <h3 className="text-xs font-bold uppercase tracking-wider text-stone-600 dark:text-stone-400">{title}</h3>
      {children}
    </section>
  );
}

function Chips({ items }: { items: readonly string[] }) {
  if (items.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-1.5">
      {items.map((item) => (
        <li
          key={item}
          className="rounded-full bg-stone-100 px-2.5 py-1 text-xs font-semibold text-stone-800 dark:bg-stone-800 dark:text-stone-100"
        >
          {item}
        </li>
      ))}
    </ul>
  );
}

function Facts({ rows }: { rows: ReadonlyArray<[string, ReactNode | null | undefined]> }) {
  const shown = rows.filter(([, value]) => value !== null && value !== undefined && value !== '');
  if (shown.length === 0) return null;
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-2.5 text-sm">
      {shown.map(([term, value]) => (
        <div key={term} className="flex flex-col">
          <dt className="text-xs text-stone-600 dark:text-stone-400">{term}</dt>
          <dd className="font-semibold text-stone-900 dark:text-stone-100">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Labelled({ label, items }: { label: string; items: readonly string[] }) {
  if (items.length === 0) return null;
  return (
    <div className="flex flex-col gap-1.5">
      <p className="text-xs text-stone-600 dark:text-stone-400">{label}</p>
      <Chips items={items} />
    </div>
  );
}

/** Height and weight appear only when entered, injuries and diet only to matches (docs/decisions/0030). */
function hasHealth(health: NonNullable<PublicProfile['health']>): boolean {
  return (
    health.height != null ||
    health.weight != null ||
    (health.injuries?.length ?? 0) > 0 ||
    (health.dietaryPreferences?.length ?? 0) > 0
  );
}

/** The full profile (spec 001 §2): health, stats and social blocks only when present. */
export function ProfileDetails({ profile }: { profile: PublicProfile }) {
  const [viewerIndex, setViewerIndex] = useState<number | null>(null);
  const { training, gym, health, stats } = profile;
  const links = socialLinks(profile.social);
  const fullName = [profile.name, profile.lastName].filter(Boolean).join(' ');
  return (
    // The content scrolls inside the dialog, so the title and the close button stay in view.
    <div className="-mx-1 flex max-h-[min(70dvh,44rem)] flex-col gap-4 overflow-y-auto overscroll-contain px-1 pb-1">
      <div className="flex shrink-0 gap-2 overflow-x-auto pb-1">
        {(profile.photos.length > 0 ? profile.photos : ['']).map((photo, index) => (
          <button
            key={photo || 'avatar'}
            type="button"
            onClick={() => profile.photos.length > 0 && setViewerIndex(index)}
            aria-label={`Ver foto ${index + 1} de ${fullName} a pantalla completa`}
            className="relative aspect-[3/4] w-28 shrink-0 overflow-hidden rounded-2xl bg-stone-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 first:w-36 dark:bg-stone-800"
          >
            <SafeImage
              photo={photo}
              isThumbnail
              alt={`Foto ${index + 1} de ${fullName}`}
              className="size-full object-cover"
            />
          </button>
        ))}
      </div>
      <div className="flex flex-col gap-1.5">
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-stone-700 dark:text-stone-300">
          <span className="inline-flex items-center gap-1">
            <MapPinIcon className="size-4 text-brand-700 dark:text-brand-400" />
            {profile.location.city || 'Ubicación no disponible'}
          </span>
          <span aria-hidden="true">·</span>
          <span>{profile.distanceText}</span>
          {profile.verified && (
            <span className="inline-flex items-center gap-1 rounded-full bg-sky-50 px-2 py-0.5 text-xs font-bold text-sky-800 ring-1 ring-sky-200 dark:bg-sky-500/10 dark:text-sky-300 dark:ring-sky-500/30">
              <ShieldCheckIcon className="size-3.5" /> Verificado
            </span>
          )}
        </p>
        <p className="whitespace-pre-line text-[0.9375rem] leading-relaxed text-stone-800 dark:text-stone-200">
          {profile.bio}
        </p>
      </div>
      <div className="flex flex-col gap-2 rounded-2xl bg-brand-50 p-4 ring-1 ring-brand-200/70 dark:bg-brand-500/10 dark:ring-brand-500/25">
        <p className="flex items-center gap-2 text-sm font-bold text-brand-900 dark:text-brand-200">
          <SparklesIcon className="size-4" />
          {`${Math.round(profile.compatibilityScore)}% Entreno`}
        </p>
        {profile.compatibilityReasons.length > 0 && (
          <ul aria-label="Por qué encajáis" className="flex flex-col gap-1 text-sm text-brand-900 dark:text-brand-100">
            {profile.compatibilityReasons.map((reason) => (
              <li key={reason} className="flex gap-2">
                <span aria-hidden="true">✓</span>
                {reason}
              </li>
            ))}
          </ul>
        )}
      </div>
      {training && (
        <Block title="Entrenamiento">
          <Labelled label="Deportes" items={training.sports} />
          <Labelled label="Objetivos" items={training.goals} />
          <Facts
            rows={[
              ['Experiencia', labels.experience(training.experienceLevel)],
              ['Frecuencia', `${training.frequency} días por semana`],
              ['Compromiso', labels.commitment(training.commitment_level)],
              ['Preferencia social', labels.social(training.socialPreference)],
            ]}
          />
          <Labelled label="Motivación" items={labels.motivation(training.motivation)} />
          <Labelled label="Especialidades" items={training.specialties} />
          <Labelled label="Disponibilidad" items={training.availability} />
          <Labelled label="Suplementos" items={training.supplements} />
        </Block>
      )}
      {gym && (
        <Block title="Gimnasio">
          <Facts
            rows={[
              ['Gimnasio', gym.name],
              ['Membresía', labels.membership(gym.membershipType)],
            ]}
          />
          <Labelled label="Horario" items={gym.trainingSchedule} />
        </Block>
      )}
      {health && hasHealth(health) && (
        <Block title="Salud">
          <Facts
            rows={[
              ['Altura', health.height == null ? null : `${health.height} cm`],
              ['Peso', health.weight == null ? null : `${health.weight} kg`],
            ]}
          />
          <Labelled label="Lesiones" items={health.injuries ?? []} />
          <Labelled label="Alimentación" items={health.dietaryPreferences ?? []} />
        </Block>
      )}
      {stats && (
        <Block title="Estadísticas">
          <Facts
            rows={[
              ['Entrenamientos', stats.matches_count],
              ['Racha', `${stats.streak} días`],
            ]}
          />
        </Block>
      )}
      {links.length > 0 && (
        <Block title="Redes sociales">
          <ul className="flex flex-wrap gap-2">
            {links.map((link) => (
              <li key={link.network}>
                <a
                  href={link.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="inline-flex items-center gap-1.5 rounded-full bg-stone-100 px-3 py-1.5 text-sm font-semibold text-stone-800 hover:bg-stone-200 focus-visible:outline-2 focus-visible:outline-brand-600 dark:bg-stone-800 dark:text-stone-100 dark:hover:bg-stone-700"
                >
                  {link.network}
                  <span className="font-normal text-stone-600 dark:text-stone-400">{link.handle}</span>
                </a>
              </li>
            ))}
          </ul>
        </Block>
      )}
      <PhotoViewer
        photos={profile.photos}
        index={viewerIndex}
        onIndexChange={setViewerIndex}
        onClose={() => setViewerIndex(null)}
        name={profile.name}
      />
    </div>
  );
}

function modalTitle(profile: PublicProfile): ReactNode {
  return (
    <span className="inline-flex items-center gap-2">
      {[[profile.name, profile.lastName].filter(Boolean).join(' '), profile.age]
        .filter((part) => part !== null)
        .join(', ')}
      {profile.verified && (
        <ShieldCheckIcon className="size-5 text-sky-600 dark:text-sky-400" label="Perfil verificado" />
      )}
    </span>
  );
}

/** A slot under the profile for what other features add (the safety actions, filled in by the route). */
export type RenderProfileActions = (profile: PublicProfile) => ReactNode;

function ProfileActions({ profile, render }: { profile: PublicProfile; render?: RenderProfileActions }) {
  if (!render) return null;
  return <div className="mt-3 border-t border-stone-200 pt-3 dark:border-stone-800">{render(profile)}</div>;
}

/** The full profile modal for a profile already loaded (the deck), with the deck's three decisions. */
export function ProfileModal({
  profile,
  onClose,
  onDecide,
  renderActions,
}: {
  profile: PublicProfile | null;
  onClose: () => void;
  /** Rechazar / Super Entreno / Entreno from inside the profile (issue #20): closes it and acts. */
  onDecide?: (action: SwipeAction) => void;
  renderActions?: RenderProfileActions;
}) {
  return (
    <Dialog open={profile !== null} onClose={onClose} title={profile ? modalTitle(profile) : ''} size="lg">
      {profile && <ProfileDetails profile={profile} />}
      {profile && onDecide && (
        <DecisionButtons onDecide={onDecide} className="mt-3 border-t border-stone-200 pt-4 dark:border-stone-800" />
      )}
      {profile && <ProfileActions profile={profile} render={renderActions} />}
    </Dialog>
  );
}

type Loaded =
  | { status: 'loading' }
  | { status: 'ready'; profile: PublicProfile }
  | { status: 'error'; message: string };

/** The full profile modal that loads the profile of `userId` first (matches, chat). */
export function ProfileModalById({
  userId,
  onClose,
  renderActions,
}: {
  userId: string | null;
  onClose: () => void;
  renderActions?: RenderProfileActions;
}) {
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  useEffect(() => {
    if (!userId) return;
    let isCurrent = true;
    setLoaded({ status: 'loading' });
    fetchPublicProfile(userId).then(
      (profile) => isCurrent && setLoaded({ status: 'ready', profile }),
      (error: unknown) =>
        isCurrent &&
        setLoaded({
          status: 'error',
          message: error instanceof ApiRequestError && error.message ? error.message : 'Error al obtener el perfil',
        }),
    );
    return () => {
      isCurrent = false;
    };
  }, [userId]);
  const title = loaded.status === 'ready' ? modalTitle(loaded.profile) : 'Perfil';
  return (
    <Dialog open={userId !== null} onClose={onClose} title={title} size="lg">
      {loaded.status === 'loading' && (
        <div className="grid min-h-64 place-items-center">
          <Spinner label="Cargando perfil..." />
        </div>
      )}
      {loaded.status === 'error' && (
        <p role="alert" className="flex items-center gap-2 text-sm font-medium text-red-700 dark:text-red-400">
          <AlertCircleIcon className="size-4" />
          {loaded.message}
        </p>
      )}
      {loaded.status === 'ready' && <ProfileDetails profile={loaded.profile} />}
      {loaded.status === 'ready' && <ProfileActions profile={loaded.profile} render={renderActions} />}
    </Dialog>
  );
}
