import { Link } from '@tanstack/react-router';
import { buttonClasses } from '../ui/button.tsx';
import { ArrowLeftIcon, CompassIcon } from '../ui/icons.tsx';
import { Logo } from '../ui/logo.tsx';
import { StatusPage } from '../ui/status-page.tsx';

/** Any path the app does not know (spec 000 §2); the server answers it with status 404. */
export function NotFoundPage() {
  return (
    <StatusPage
      header={<Logo size="sm" />}
      code="404"
      icon={<CompassIcon className="size-7" />}
      title="¡Ups! Página no encontrada"
      description="La página que buscas no existe o ha cambiado de sitio. Vuelve al inicio para seguir entrenando."
      actions={
        <Link to="/" className={buttonClasses({ size: 'lg' })}>
          <ArrowLeftIcon />
          Volver al inicio
        </Link>
      }
    />
  );
}
