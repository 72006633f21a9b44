import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import {
  NOTIFICATION_SWITCHES,
  type NotificationSwitch,
  type PrivacySwitch,
  type Settings,
} from '#shared/settings/settings-schema';
import { ChevronRightIcon, UserPenIcon } from '../../ui/icons.tsx';
import { Switch } from '../../ui/switch.tsx';
import { PushSetting } from './push-setting.tsx';
import { QuedadaReliabilitySwitch, QuedadaReminderField } from './quedada-settings.tsx';
import {
  type SearchDistanceBinding,
  type SearchGenderBinding,
  SearchPreferencesSection,
} from './search-preferences.tsx';
import { SecuritySettings } from './security-settings.tsx';
import { Divider, Section } from './settings-layout.tsx';
import { settingsStore } from './settings-live.ts';

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

/** The sections that need the loaded settings: profile, search, notifications, privacy, security, cookies. */
export function SettingsForm({
  settings,
  searchDistance,
  searchGender,
  renderSoundSwitch,
  renderDataActions,
  renderVerifyProfile,
}: {
  settings: Settings;
  searchDistance: SearchDistanceBinding;
  searchGender: SearchGenderBinding;
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

      <SearchPreferencesSection
        settings={settings}
        searchDistance={searchDistance}
        searchGender={searchGender}
        update={update}
      />

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
