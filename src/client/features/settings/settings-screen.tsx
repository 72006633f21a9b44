import { Link } from '@tanstack/react-router';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { useSnapshot } from 'valtio';
import {
  NOTIFICATION_SWITCHES,
  type NotificationSwitch,
  type PREFERRED_GENDERS,
  type PREFERRED_SCHEDULES,
  type PrivacySwitch,
  type SEARCH_EXPERIENCE_LEVELS,
  SEARCH_MAX_DISTANCE_MAX,
  SEARCH_MAX_DISTANCE_MIN,
  type Settings,
} from '#shared/settings/settings-schema';
import { useIsOnline, useReloadWhenOnline } from '../../services/network.ts';
import { Button } from '../../ui/button.tsx';
import { cx } from '../../ui/cx.ts';
import { Dialog } from '../../ui/dialog.tsx';
import {
  AlertCircleIcon,
  BellIcon,
  ChevronRightIcon,
  CompassIcon,
  FileTextIcon,
  LockIcon,
  LogInIcon,
  MonitorIcon,
  ShieldCheckIcon,
  UserIcon,
  UserPenIcon,
} from '../../ui/icons.tsx';
import { OfflinePlaceholder } from '../../ui/offline-placeholder.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { Switch } from '../../ui/switch.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { PushSetting } from './push-setting.tsx';
import { QuedadaReliabilitySwitch, QuedadaReminderField } from './quedada-settings.tsx';
import { settingsStore } from './settings-live.ts';
import { SecuritySettings } from './security-settings.tsx';
import { ThemePicker } from './theme-picker.tsx';

const SECTIONS = [
  { id: 'perfil', title: 'Perfil', icon: UserIcon },
  { id: 'busqueda', title: 'Preferencias de búsqueda', icon: CompassIcon },
  { id: 'notificaciones', title: 'Notificaciones', icon: BellIcon },
  { id: 'privacidad', title: 'Privacidad y Datos', icon: LockIcon },
  { id: 'seguridad', title: 'Seguridad', icon: ShieldCheckIcon },
  { id: 'cookies', title: 'Cookies', icon: FileTextIcon },
  { id: 'aplicacion', title: 'Configuración de la aplicación', icon: MonitorIcon },
  { id: 'sesion', title: 'Cerrar sesión', icon: LogInIcon },
] as const;
type SectionId = (typeof SECTIONS)[number]['id'];

const NOTIFICATION_LABELS: Record<NotificationSwitch, { label: string; description: string }> = {
  matches: { label: 'Nuevos matches', description: 'Cuando alguien te devuelve el Entreno.' },
  messages: { label: 'Mensajes', description: 'Cuando recibes un mensaje nuevo.' },
  superlikes: { label: 'Super Entrenos', description: 'Cuando alguien te da un Super Entreno.' },
  trainingRequests: { label: 'Solicitudes de entrenamiento', description: 'Propuestas para entrenar juntos.' },
  trainingReminders: { label: 'Recordatorios de entrenamiento', description: 'Avisos para no perder tu racha.' },
  achievements: { label: 'Logros', description: 'Cuando consigues un nuevo logro.' },
};

const PRIVACY_LABELS: Record<Exclude<PrivacySwitch, 'showProfile'>, { label: string; description: string }> = {
  showAgeRange: { label: 'Mostrar mi edad', description: 'Tu edad aparece en tu tarjeta de perfil.' },
  shareLocation: {
    label: 'Compartir mi ubicación',
    description: 'Sirve para calcular distancias aproximadas; nunca mostramos tu posición exacta.',
  },
  showTrainingStats: {
    label: 'Mostrar mis estadísticas de entrenamiento',
    description: 'Racha y entrenamientos visibles en tu perfil.',
  },
  allowTrainingRequests: {
    label: 'Permitir solicitudes de entrenamiento',
    description: 'Otras personas pueden proponerte entrenar juntos.',
  },
};

const GENDER_LABELS: Record<(typeof PREFERRED_GENDERS)[number], string> = {
  all: 'Todos',
  male: 'Hombres',
  female: 'Mujeres',
};
const LEVEL_LABELS: Record<(typeof SEARCH_EXPERIENCE_LEVELS)[number], string> = {
  all: 'Todos los niveles',
  beginner: 'Principiante',
  intermediate: 'Intermedio',
  advanced: 'Avanzado',
};
const SCHEDULE_LABELS: Record<(typeof PREFERRED_SCHEDULES)[number], string> = {
  flexible: 'Flexible',
  morning: 'Mañana (6-12 h)',
  afternoon: 'Tarde (12-18 h)',
  evening: 'Noche (18-23 h)',
};

const CARD = 'rounded-3xl bg-white p-5 shadow-sm ring-1 ring-stone-900/6 sm:p-6 dark:bg-stone-900 dark:ring-white/8';
const FIELD_LABEL = 'text-[0.9375rem] font-medium text-stone-900 dark:text-stone-100';
const SELECT =
  'mt-1.5 h-11 w-full rounded-xl border-0 bg-white px-3 text-[0.9375rem] text-stone-900 ring-1 ring-inset ring-stone-300 ' +
  'focus-visible:outline-2 focus-visible:outline-brand-600 dark:bg-stone-800 dark:text-stone-50 dark:ring-stone-600 dark:focus-visible:outline-brand-400';

function Section({ id, description, children }: { id: SectionId; description?: ReactNode; children: ReactNode }) {
  const section = SECTIONS.find((entry) => entry.id === id) ?? SECTIONS[0];
  return (
    <section id={id} aria-labelledby={`${id}-title`} className={cx(CARD, 'scroll-mt-20 lg:scroll-mt-8')}>
      <h2 id={`${id}-title`} className="flex items-center gap-2.5 text-lg font-bold text-stone-900 dark:text-white">
        <section.icon className="size-5 text-brand-700 dark:text-brand-400" />
        {section.title}
      </h2>
      {description !== undefined && <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{description}</p>}
      <div className="mt-4 flex flex-col gap-4">{children}</div>
    </section>
  );
}

function SectionNav() {
  return (
    <nav aria-label="Secciones de configuración" className="sticky top-8 hidden self-start lg:block">
      <ul className="flex flex-col gap-0.5">
        {SECTIONS.map((section) => (
          <li key={section.id}>
            <a
              href={`#${section.id}`}
              className="flex items-center gap-2.5 rounded-xl px-3 py-2 text-sm font-semibold text-stone-700 hover:bg-stone-100 hover:text-stone-900 focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-stone-300 dark:hover:bg-white/6 dark:hover:text-white dark:focus-visible:outline-brand-400"
            >
              <section.icon className="size-4.5 shrink-0 text-stone-500 dark:text-stone-400" />
              {section.title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Divider() {
  return <hr className="border-stone-200 dark:border-white/8" />;
}

function SelectField<TValue extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: TValue;
  options: Record<TValue, string>;
  onChange: (value: TValue) => void;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className={FIELD_LABEL}>
        {label}
      </label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value as TValue)} className={SELECT}>
        {(Object.keys(options) as TValue[]).map((key) => (
          <option key={key} value={key}>
            {options[key]}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The deck's maximum distance when it is known (the profile's, the one the deck uses: decision
 * 0027), shown and changed here as in the deck's "Ajustar Preferencias"; null before a profile
 * exists, when the slider keeps the settings' own value (spec default 25).
 */
export type SearchDistanceBinding = { value: number; onChange: (km: number) => void } | null;

function DistanceSlider({ value, onChange }: { value: number; onChange: (km: number) => void }) {
  const id = useId();
  return (
    <div>
      <div className="flex items-baseline justify-between gap-3">
        <label htmlFor={id} className={FIELD_LABEL}>
          Distancia máxima
        </label>
        <output htmlFor={id} className="text-sm font-bold tabular-nums text-brand-800 dark:text-brand-300">
          {`${value} km`}
        </output>
      </div>
      <input
        id={id}
        type="range"
        min={SEARCH_MAX_DISTANCE_MIN}
        max={SEARCH_MAX_DISTANCE_MAX}
        step={1}
        value={value}
        aria-valuetext={`${value} km`}
        onChange={(event) => onChange(Number(event.target.value))}
        className="mt-2 h-2 w-full cursor-pointer accent-brand-700 dark:accent-brand-500"
      />
      <div aria-hidden="true" className="mt-1 flex justify-between text-xs text-stone-600 dark:text-stone-400">
        <span>{`${SEARCH_MAX_DISTANCE_MIN} km`}</span>
        <span>{`${SEARCH_MAX_DISTANCE_MAX} km`}</span>
      </div>
    </div>
  );
}

function SignOutSection({ renderSignOutButton }: { renderSignOutButton: () => ReactNode }) {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <Section
      id="sesion"
      description="Cierra la sesión en este navegador. Borraremos los datos de tu cuenta guardados en él."
    >
      <Button
        variant="secondary"
        className="self-start"
        iconStart={<LogInIcon className="size-5 rotate-180" />}
        onClick={() => setIsOpen(true)}
      >
        Cerrar sesión
      </Button>
      <Dialog
        open={isOpen}
        onClose={() => setIsOpen(false)}
        title="¿Cerrar sesión?"
        description="Saldrás de Entreno en este navegador y dejarás de recibir aquí sus notificaciones push."
        actions={
          <>
            <Button variant="secondary" onClick={() => setIsOpen(false)}>
              Cancelar
            </Button>
            {renderSignOutButton()}
          </>
        }
      />
    </Section>
  );
}

function SettingsForm({
  settings,
  searchDistance,
  renderSoundSwitch,
  renderDataActions,
  renderVerifyProfile,
}: {
  settings: Settings;
  searchDistance: SearchDistanceBinding;
  renderSoundSwitch: () => ReactNode;
  renderDataActions: () => ReactNode;
  renderVerifyProfile: () => ReactNode;
}) {
  const { update } = settingsStore;
  return (
    <>
      <Section id="perfil" description="Tu perfil es lo primero que ven los demás.">
        <Link
          to="/edit-profile"
          className="-mx-1 flex items-center gap-3 rounded-2xl px-1 py-1 font-semibold text-stone-800 hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-stone-100 dark:hover:text-brand-400 dark:focus-visible:outline-brand-400"
        >
          <UserPenIcon className="size-5 text-stone-500 dark:text-stone-400" />
          <span className="flex-1">Editar perfil</span>
          <ChevronRightIcon className="size-5 text-stone-500 dark:text-stone-400" />
        </Link>
        <Divider />
        {renderVerifyProfile()}
        <Divider />
        <Switch
          checked={settings.privacy.showProfile}
          onChange={(showProfile) => void update({ privacy: { showProfile } })}
          label="Perfil visible"
          description="Si lo desactivas, dejarás de aparecer en las sugerencias de otras personas."
        />
      </Section>

      <Section id="busqueda" description="A quién te sugerimos en Conectar.">
        <DistanceSlider
          value={searchDistance?.value ?? settings.search.maxDistance}
          onChange={searchDistance?.onChange ?? settingsStore.setMaxDistance}
        />
        <SelectField
          label="Mostrar"
          value={settings.search.preferredGender}
          options={GENDER_LABELS}
          onChange={(preferredGender) => void update({ search: { preferredGender } })}
        />
        <SelectField
          label="Nivel de experiencia"
          value={settings.search.experienceLevel}
          options={LEVEL_LABELS}
          onChange={(experienceLevel) => void update({ search: { experienceLevel } })}
        />
        <SelectField
          label="Horario preferido"
          value={settings.search.preferredSchedule}
          options={SCHEDULE_LABELS}
          onChange={(preferredSchedule) => void update({ search: { preferredSchedule } })}
        />
      </Section>

      <Section id="notificaciones" description="Elige de qué quieres enterarte.">
        {NOTIFICATION_SWITCHES.map((key) => (
          <Switch
            key={key}
            checked={settings.notifications[key]}
            onChange={(isOn) => void update({ notifications: { [key]: isOn } })}
            label={NOTIFICATION_LABELS[key].label}
            description={NOTIFICATION_LABELS[key].description}
          />
        ))}
        <QuedadaReminderField settings={settings} update={update} />
        <Divider />
        <PushSetting />
        {renderSoundSwitch()}
      </Section>

      <Section id="privacidad" description="Qué ven los demás y qué hacemos con tus datos.">
        {(Object.keys(PRIVACY_LABELS) as Array<keyof typeof PRIVACY_LABELS>).map((key) => (
          <Switch
            key={key}
            checked={settings.privacy[key]}
            onChange={(isOn) => void update({ privacy: { [key]: isOn } })}
            label={PRIVACY_LABELS[key].label}
            description={PRIVACY_LABELS[key].description}
          />
        ))}
        <QuedadaReliabilitySwitch settings={settings} update={update} />
        <Divider />
        {renderDataActions()}
      </Section>

      <Section id="seguridad" description="Protege el acceso a tu cuenta.">
        <SecuritySettings />
      </Section>

      <Section id="cookies" description="Cómo usamos las cookies en Entreno.">
        <Switch
          checked
          disabled
          onChange={() => {}}
          label="Necesarias"
          description="Imprescindibles para que Entreno funcione. Siempre activas."
        />
        <Switch
          checked={settings.cookies.analytics}
          onChange={(analytics) => void update({ cookies: { analytics } })}
          label="Analíticas"
          description="Nos ayudan a entender cómo se usa la app para mejorarla."
        />
        <Switch
          checked={settings.cookies.marketing}
          onChange={(marketing) => void update({ cookies: { marketing } })}
          label="Marketing"
          description="Permiten mostrarte contenido y ofertas relevantes."
        />
        <Switch
          checked={settings.cookies.preferences}
          onChange={(preferences) => void update({ cookies: { preferences } })}
          label="Preferencias"
          description="Recuerdan tus ajustes, como el idioma o el tema."
        />
      </Section>
    </>
  );
}

/**
 * /config (spec 001 §2): every section, side navigation on desktop and stacked on phones. The
 * route hands in what belongs to other features: the sign-out button, the sound switch, the
 * "Descargar mis datos" / "Eliminar mi cuenta" actions (safety) and "Verificar perfil".
 */
export function SettingsScreen({
  searchDistance = null,
  renderSignOutButton,
  renderSoundSwitch,
  renderDataActions,
  renderVerifyProfile,
  renderInstallEntry = () => null,
}: {
  searchDistance?: SearchDistanceBinding;
  renderSignOutButton: () => ReactNode;
  renderSoundSwitch: () => ReactNode;
  renderDataActions: () => ReactNode;
  renderVerifyProfile: () => ReactNode;
  /** "Instalar Entreno" (features/install), in the Aplicación section; nothing where it cannot install. */
  renderInstallEntry?: () => ReactNode;
}) {
  usePageTitle('Configuración');
  const snap = useSnapshot(settingsStore.state);
  useEffect(() => {
    void settingsStore.load();
  }, []);

  const current = snap.current;
  const isOnline = useIsOnline();
  useReloadWhenOnline(current.status === 'error', () => settingsStore.load());
  return (
    <div className="flex flex-col gap-5">
      <header>
        <h1 className="text-2xl font-extrabold tracking-tight text-stone-900 sm:text-3xl dark:text-white">
          Configuración
        </h1>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          Tu perfil, tus preferencias, las notificaciones y la seguridad de tu cuenta.
        </p>
      </header>
      <div className="grid gap-5 lg:grid-cols-[11.5rem_minmax(0,1fr)] lg:gap-6">
        <SectionNav />
        <div className="flex min-w-0 flex-col gap-5">
          {(current.status === 'loading' || current.status === 'idle') && (
            <div className={cx(CARD, 'flex flex-col items-center gap-3 py-10')}>
              <Spinner size="lg" label={null} className="text-brand-600 dark:text-brand-400" />
              <p role="status" className="text-sm font-medium text-stone-700 dark:text-stone-300">
                Cargando configuración...
              </p>
            </div>
          )}
          {current.status === 'error' && !isOnline && <OfflinePlaceholder />}
          {current.status === 'error' && isOnline && (
            <div className={cx(CARD, 'flex flex-col items-center gap-3 py-10 text-center')}>
              <AlertCircleIcon className="size-8 text-red-700 dark:text-red-400" />
              <p role="alert" className="font-semibold text-stone-900 dark:text-white">
                {current.message}
              </p>
              <Button variant="secondary" onClick={() => void settingsStore.load()}>
                Reintentar
              </Button>
            </div>
          )}
          {current.status === 'ready' && (
            <SettingsForm
              settings={current.settings as Settings}
              searchDistance={searchDistance}
              renderSoundSwitch={renderSoundSwitch}
              renderDataActions={renderDataActions}
              renderVerifyProfile={renderVerifyProfile}
            />
          )}
          <Section id="aplicacion" description="Con «Sistema», Entreno sigue el modo claro u oscuro de tu dispositivo.">
            <ThemePicker
              onChange={(theme) => {
                if (settingsStore.state.current.status === 'ready') void settingsStore.update({ theme });
              }}
            />
            {renderInstallEntry()}
          </Section>
          <SignOutSection renderSignOutButton={renderSignOutButton} />
        </div>
      </div>
    </div>
  );
}
