import { useSyncExternalStore } from 'react';
import { dismissInstallCard, installCardDue } from '../../services/install-prompt.ts';
import { Button } from '../../ui/button.tsx';
import { useInstallAction } from './use-install.tsx';

/**
 * The one-time offer to install (issue #22): after a moment of value (the first match, the first
 * message sent), on a list screen, where this device can install. "Ahora no" or "Instalar" and it
 * never shows again on this device.
 */
export function InstallCard({ isAllowedHere }: { isAllowedHere: boolean }) {
  const { path, install, sheet } = useInstallAction();
  const isDue = useSyncExternalStore(installCardDue.subscribe, installCardDue.getSnapshot, () => false);
  if (path === 'none' || !isDue || !isAllowedHere) return sheet;
  return (
    <>
      <section
        aria-labelledby="install-card-title"
        data-testid="install-card"
        className="fixed inset-x-3 bottom-[calc(4.75rem+env(safe-area-inset-bottom))] z-30 mx-auto max-w-md rounded-3xl bg-white p-4 shadow-xl ring-1 ring-stone-900/10 lg:inset-x-auto lg:bottom-6 lg:right-6 lg:w-96 dark:bg-stone-900 dark:ring-white/12"
      >
        <div className="flex items-start gap-3">
          <img src="/icons/icon-192.png" alt="" width={48} height={48} className="size-12 shrink-0 rounded-xl" />
          <div className="min-w-0">
            <h2 id="install-card-title" className="text-base font-bold text-stone-900 dark:text-white">
              Instalar Entreno
            </h2>
            <p className="mt-0.5 text-sm text-stone-700 dark:text-stone-300">
              Tenla en tu pantalla de inicio: se abre al momento y funciona sin conexión.
            </p>
          </div>
        </div>
        <div className="mt-3 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => dismissInstallCard('dismissed')}>
            Ahora no
          </Button>
          <Button
            onClick={() => {
              dismissInstallCard('prompted');
              void install();
            }}
          >
            Instalar
          </Button>
        </div>
      </section>
      {sheet}
    </>
  );
}
