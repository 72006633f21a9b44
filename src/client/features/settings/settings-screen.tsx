import { type ReactNode, useEffect } from 'react';
import { useSnapshot } from 'valtio';
import type { Settings } from '#shared/settings/settings-schema';
import { useIsOnline, useReloadWhenOnline } from '../../services/network.ts';
import { Button } from '../../ui/button.tsx';
import { cx } from '../../ui/cx.ts';
import { AlertCircleIcon } from '../../ui/icons.tsx';
import { OfflinePlaceholder } from '../../ui/offline-placeholder.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import type { SearchDistanceBinding, SearchGenderBinding } from './search-preferences.tsx';
import { SettingsForm } from './settings-form.tsx';
import { CARD, Section, SectionNav } from './settings-layout.tsx';
import { settingsStore } from './settings-live.ts';
import { SignOutSection } from './sign-out-section.tsx';
import { ThemePicker } from './theme-picker.tsx';

/**
 * /config (spec 001 §2): every section, side navigation on desktop and stacked on phones. The
 * route hands in what belongs to other features: the sign-out button, the sound switch, the
 * "Descargar mis datos" / "Eliminar mi cuenta" actions (safety) and "Verificar perfil".
 */
export function SettingsScreen({
  searchDistance = null,
  searchGender = null,
  renderSignOutButton,
  renderSoundSwitch,
  renderDataActions,
  renderVerifyProfile,
  renderInstallEntry = () => null,
}: {
  searchDistance?: SearchDistanceBinding;
  searchGender?: SearchGenderBinding;
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
              searchGender={searchGender}
              renderSoundSwitch={renderSoundSwitch}
              renderDataActions={renderDataActions}
              renderVerifyProfile={renderVerifyProfile}
            />
          )}
          {/* The sections below the form wait for it: shown during loading, they jumped down by the
              form's height under a finger or pointer about to press them («Cerrar sesión» then
              opened nothing, issue #33). Shown on a failure too: signing out needs no settings. */}
          {current.status !== 'loading' && current.status !== 'idle' && (
            <>
              <Section
                id="aplicacion"
                description="Con «Sistema», Entreno sigue el modo claro u oscuro de tu dispositivo."
              >
                <ThemePicker
                  onChange={(theme) => {
                    if (settingsStore.state.current.status === 'ready') void settingsStore.update({ theme });
                  }}
                />
                {renderInstallEntry()}
              </Section>
              <SignOutSection renderSignOutButton={renderSignOutButton} />
            </>
          )}
        </div>
      </div>
    </div>
  );
}
