import { SignOutButton } from '../features/auth/sign-out-button.tsx';
import { InstallEntry } from '../features/install/index.ts';
import { setNotificationSoundOn, useNotificationSoundOn } from '../features/notifications/index.ts';
import { ModerationConsoleLink, useModeratorAccess } from '../features/moderation/index.ts';
import { AccountDataActions } from '../features/safety/index.ts';
import { SettingsScreen } from '../features/settings/index.ts';
import { VerifyProfile } from '../features/verification/index.ts';
import { Switch } from '../ui/switch.tsx';
import { useSearchDistance, useSearchGender } from './config-search-preferences.ts';

function NotificationSoundSwitch() {
  const isOn = useNotificationSoundOn();
  return (
    <Switch
      checked={isOn}
      onChange={setNotificationSoundOn}
      label="Sonido de notificaciones"
      description="Un aviso breve cuando llega una notificación con la app abierta."
    />
  );
}

/** Moderators only (docs/decisions/0033): everyone else never sees the console exists. */
function ModerationEntry() {
  const moderator = useModeratorAccess();
  if (!moderator) return null;
  return (
    <p className="pt-2 text-sm">
      <ModerationConsoleLink />
    </p>
  );
}

/**
 * Settings (spec 001 §2); sign-out comes from the auth feature, the sound switch from notifications,
 * "Descargar mis datos" and "Eliminar mi cuenta" from safety, the console link (moderators only) from
 * moderation, "Verificar perfil" from verification, "Instalar Entreno" from install.
 */
export function ConfigPage() {
  const searchDistance = useSearchDistance();
  const searchGender = useSearchGender();
  return (
    <SettingsScreen
      searchDistance={searchDistance}
      searchGender={searchGender}
      renderSignOutButton={() => <SignOutButton variant="danger" />}
      renderSoundSwitch={() => <NotificationSoundSwitch />}
      renderDataActions={() => (
        <>
          <AccountDataActions />
          <ModerationEntry />
        </>
      )}
      renderVerifyProfile={() => <VerifyProfile />}
      renderInstallEntry={() => <InstallEntry />}
    />
  );
}
