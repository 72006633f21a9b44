import { Button } from '../../ui/button.tsx';
import { DownloadIcon } from '../../ui/icons.tsx';
import { useInstallAction } from './use-install.tsx';

/**
 * "Instalar Entreno" in /config (issue #22): shown only where the app can be installed and is not
 * yet (an installed app, or a browser that cannot install, shows nothing).
 */
export function InstallEntry() {
  const { path, install, sheet } = useInstallAction();
  if (path === 'none') return sheet;
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      <div>
        <p className="text-[0.9375rem] font-medium text-stone-900 dark:text-stone-100">
          Entreno en tu pantalla de inicio
        </p>
        <p className="mt-0.5 text-sm text-stone-600 dark:text-stone-400">
          Se abre al momento, a pantalla completa, y funciona sin conexión.
        </p>
      </div>
      <Button
        variant="secondary"
        onClick={() => void install()}
        iconStart={<DownloadIcon className="size-4.5" />}
        className="shrink-0"
      >
        Instalar Entreno
      </Button>
      {sheet}
    </div>
  );
}
