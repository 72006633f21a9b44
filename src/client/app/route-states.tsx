import type { ErrorComponentProps } from '@tanstack/react-router';
import { Button } from '../ui/button.tsx';
import { AlertCircleIcon } from '../ui/icons.tsx';
import { Logo } from '../ui/logo.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { StatusPage } from '../ui/status-page.tsx';

/** Shown while a route's code loads on a slow connection. */
export function RoutePending() {
  return (
    <div className="grid min-h-[60dvh] place-items-center text-brand-700 animate-[fade-in_300ms_ease-out] dark:text-brand-400">
      <Spinner size="lg" />
    </div>
  );
}

/** Shown when a route fails to load or render, e.g. its code could not be fetched while offline. */
export function RouteError({ error }: ErrorComponentProps) {
  // The details go to the console for developers; the person sees a way out.
  console.error(error);
  return (
    <StatusPage
      header={<Logo size="sm" />}
      icon={<AlertCircleIcon className="size-9" />}
      title="Algo ha fallado"
      description="No hemos podido mostrar esta página. Comprueba tu conexión e inténtalo de nuevo."
      actions={
        <Button size="lg" onClick={() => window.location.reload()}>
          Reintentar
        </Button>
      }
    />
  );
}
