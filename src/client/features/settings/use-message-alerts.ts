import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { settingsStore } from './settings-live.ts';

/**
 * Whether "Mensajes" notifications are on (spec 001 §3, default on), for the in-app message
 * banner; loads the settings once if no screen has yet.
 */
export function useMessageAlertsEnabled(): boolean {
  const snap = useSnapshot(settingsStore.state);
  useEffect(() => {
    if (settingsStore.state.current.status === 'idle') void settingsStore.load();
  }, []);
  return snap.current.status === 'ready' ? snap.current.settings.notifications.messages : true;
}
