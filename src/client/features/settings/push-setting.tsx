import { useEffect, useState } from 'react';
import {
  getPushPermission,
  hasPushSubscription,
  isPushSupported,
  type PushPermission,
  subscribeToPush,
  unsubscribeFromPush,
} from '../../services/push.ts';
import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { Switch } from '../../ui/switch.tsx';
import { toast } from '../../ui/toast-store.ts';

const PERMISSION_TEXT: Record<PushPermission, string> = {
  granted: 'Permiso del navegador: concedido.',
  default: 'Permiso del navegador: todavía no lo has decidido.',
  denied:
    'Permiso del navegador: bloqueado. Para activarlas, permite las notificaciones de Entreno en los ajustes del navegador.',
  unsupported: 'Este navegador no admite notificaciones push. En iPhone, instala Entreno en la pantalla de inicio.',
};

/**
 * "Notificaciones push": turning it on first explains what will happen, and only the button in
 * that explanation (a user gesture) makes the browser ask for permission (QUALITY 22).
 */
export function PushSetting() {
  const [permission, setPermission] = useState<PushPermission>(() => getPushPermission());
  const [isSubscribed, setIsSubscribed] = useState(false);
  const [isBusy, setIsBusy] = useState(false);
  const [isExplaining, setIsExplaining] = useState(false);

  useEffect(() => {
    let isCurrent = true;
    void hasPushSubscription()
      .then((value) => isCurrent && setIsSubscribed(value))
      .catch(() => {});
    return () => {
      isCurrent = false;
    };
  }, []);

  const subscribe = async () => {
    setIsBusy(true);
    try {
      const result = await subscribeToPush();
      setPermission(getPushPermission());
      if (result.status === 'subscribed') {
        setIsSubscribed(true);
        setIsExplaining(false);
        toast.success('Notificaciones push activadas.');
      } else if (result.status === 'denied') {
        setIsExplaining(false);
        toast.error('Has bloqueado las notificaciones. Puedes permitirlas en los ajustes del navegador.');
      } else if (result.status === 'dismissed') {
        setIsExplaining(false);
        toast.info('No se activaron las notificaciones push.');
      } else {
        setIsExplaining(false);
      }
    } catch (error) {
      console.warn('[settings] push subscription failed', error);
      toast.error('No se pudieron activar las notificaciones push. Inténtalo de nuevo.');
    } finally {
      setIsBusy(false);
    }
  };

  const unsubscribe = async () => {
    setIsBusy(true);
    try {
      await unsubscribeFromPush();
      setIsSubscribed(false);
      toast.info('Notificaciones push desactivadas en este navegador.');
    } catch (error) {
      console.warn('[settings] push unsubscription failed', error);
      setIsSubscribed(await hasPushSubscription().catch(() => false));
    } finally {
      setIsBusy(false);
    }
  };

  const isAvailable = isPushSupported() && permission !== 'denied';
  return (
    <div className="flex flex-col gap-2">
      <Switch
        checked={isSubscribed && permission === 'granted'}
        disabled={!isAvailable || isBusy}
        onChange={(isOn) => (isOn ? setIsExplaining(true) : void unsubscribe())}
        label="Notificaciones push"
        description="Avisos en este dispositivo aunque Entreno esté cerrada."
      />
      <p data-testid="push-permission" className="text-xs text-stone-600 dark:text-stone-400">
        {PERMISSION_TEXT[permission]}
      </p>
      <Dialog
        open={isExplaining}
        onClose={() => !isBusy && setIsExplaining(false)}
        title="Activar notificaciones push"
        description="Te avisaremos en este dispositivo de nuevos matches, mensajes y recordatorios, aunque Entreno esté cerrada."
        actions={
          <>
            <Button variant="secondary" onClick={() => setIsExplaining(false)} disabled={isBusy}>
              Ahora no
            </Button>
            <Button onClick={() => void subscribe()} isLoading={isBusy} loadingText="Activando...">
              Continuar
            </Button>
          </>
        }
      >
        <p className="text-sm leading-relaxed text-stone-700 dark:text-stone-300">
          Al pulsar «Continuar», el navegador te pedirá permiso para mostrar notificaciones. Puedes elegir qué tipos
          recibes con los interruptores de esta sección y desactivarlas cuando quieras.
        </p>
      </Dialog>
    </div>
  );
}
