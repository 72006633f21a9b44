import { SignOutButton } from '../features/auth/sign-out-button.tsx';
import { setNotificationSoundOn, useNotificationSoundOn } from '../features/notifications/index.ts';
import { AccountDataActions } from '../features/safety/index.ts';
import { SettingsScreen } from '../features/settings/index.ts';
import { Switch } from '../ui/switch.tsx';
import { useSearchDistance } from './config-search-distance.ts';

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

/**
 * Settings (spec 001 §2); sign-out comes from the auth feature, the sound switch from notifications,
 * "Descargar mis datos" and "Eliminar mi cuenta" from safety.
 */
export function ConfigPage() {
  const searchDistance = useSearchDistance();
  return (
    <SettingsScreen
      searchDistance={searchDistance}
      renderSignOutButton={() => <SignOutButton variant="danger" />}
      renderSoundSwitch={() => <NotificationSoundSwitch />}
      renderDataActions={() => <AccountDataActions />}
    />
  );
}
