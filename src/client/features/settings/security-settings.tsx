import { useCallback, useEffect, useState } from 'react';
import type { SecurityStatusResponse } from '#shared/security/security-schemas';
import { Button } from '../../ui/button.tsx';
import { Switch } from '../../ui/switch.tsx';
import { toast } from '../../ui/toast-store.ts';
import { useIsOnline, useReloadWhenOnline } from '../../services/network.ts';
import { PasskeySettings } from './passkey-settings.tsx';
import { securityApi, securityDate, securityErrorMessage } from './security-api.ts';
import { RecoveryCodesDialog, TwoFactorDisableDialog, TwoFactorSetupDialog } from './two-factor-dialogs.tsx';

type SecurityStatus =
  | { status: 'loading' }
  | { status: 'ready'; data: SecurityStatusResponse }
  | { status: 'error'; message: string };

/**
 * Configuración → Seguridad (docs/decisions/0032): the real two-step switch (setup with a QR code,
 * turning it off with the password and a code) and the account's passkeys.
 */
export function SecuritySettings() {
  const [state, setState] = useState<SecurityStatus>({ status: 'loading' });
  const [dialog, setDialog] = useState<'setup' | 'disable' | 'codes' | null>(null);

  const load = useCallback(() => {
    securityApi.status().then(
      (data) => setState({ status: 'ready', data }),
      (failure) => setState({ status: 'error', message: securityErrorMessage(failure) }),
    );
  }, []);
  useEffect(load, [load]);
  const isOnline = useIsOnline();
  // Offline (issue #22): nothing to fix by retrying; say so kindly and load when the connection returns.
  // The frame's pill says «Sin conexión» (issue #34: one look for it), this line only what follows.
  useReloadWhenOnline(state.status === 'error', load);

  if (state.status === 'error' && !isOnline) {
    return (
      <p className="text-sm text-stone-600 dark:text-stone-400">
        Verás y podrás cambiar la seguridad de tu cuenta cuando vuelvas a estar en línea.
      </p>
    );
  }
  if (state.status === 'loading') {
    return <p className="text-sm text-stone-600 dark:text-stone-400">Cargando la seguridad de tu cuenta…</p>;
  }
  if (state.status === 'error') {
    return (
      <div className="flex flex-col items-start gap-2">
        <p role="alert" className="text-sm font-medium text-red-800 dark:text-red-200">
          {state.message}
        </p>
        <Button variant="secondary" size="sm" onClick={load}>
          Reintentar
        </Button>
      </div>
    );
  }

  const { twoFactor, passkeys } = state.data;
  const description = twoFactor.isEnabled
    ? `Activada${twoFactor.enabledAt ? ` desde el ${securityDate(twoFactor.enabledAt)}` : ''}. Al iniciar sesión te pedimos un código de tu aplicación de autenticación${twoFactor.phoneHint ? ` (o por SMS al ${twoFactor.phoneHint})` : ''}. Te quedan ${twoFactor.recoveryCodesLeft} códigos de recuperación.`
    : 'Al iniciar sesión, te pediremos además un código de tu aplicación de autenticación.';

  const closeDialog = (changed: boolean, message: string) => {
    setDialog(null);
    if (changed) {
      toast.success(message);
      load();
    }
  };

  return (
    <>
      <Switch
        checked={twoFactor.isEnabled}
        onChange={(isOn) => setDialog(isOn ? 'setup' : 'disable')}
        label="Verificación en dos pasos"
        description={description}
      />
      {twoFactor.isEnabled && (
        <Button variant="secondary" size="sm" className="self-start" onClick={() => setDialog('codes')}>
          Generar nuevos códigos de recuperación
        </Button>
      )}
      <TwoFactorSetupDialog
        open={dialog === 'setup'}
        onClose={(changed) => closeDialog(changed, 'Verificación en dos pasos activada.')}
      />
      <TwoFactorDisableDialog
        open={dialog === 'disable'}
        hasPassword={twoFactor.hasPassword}
        onClose={(changed) => closeDialog(changed, 'Verificación en dos pasos desactivada.')}
      />
      <RecoveryCodesDialog
        open={dialog === 'codes'}
        onClose={(changed) => {
          setDialog(null);
          if (changed) load();
        }}
      />
      <hr className="border-stone-200 dark:border-white/8" />
      <PasskeySettings passkeys={passkeys} onChanged={load} />
    </>
  );
}
