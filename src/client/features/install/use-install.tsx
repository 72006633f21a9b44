import { useState, useSyncExternalStore } from 'react';
import { type InstallPath, installPath, promptInstall } from '../../services/install-prompt.ts';
import { IosInstallSheet } from './ios-install-sheet.tsx';

/** How this device installs; 'none' before hydration and where it cannot. */
export function useInstallPath(): InstallPath {
  return useSyncExternalStore(installPath.subscribe, installPath.getSnapshot, () => 'none');
}

/**
 * The "Instalar" action of this device: the browser's own dialog, or on an iPhone the sheet
 * with the two steps (render `sheet` next to the button).
 */
export function useInstallAction() {
  const path = useInstallPath();
  const [isSheetOpen, setSheetOpen] = useState(false);
  const install = async (): Promise<void> => {
    if (path === 'ios') setSheetOpen(true);
    else if (path === 'prompt') await promptInstall();
  };
  const sheet = <IosInstallSheet open={isSheetOpen} onClose={() => setSheetOpen(false)} />;
  return { path, install, sheet };
}
