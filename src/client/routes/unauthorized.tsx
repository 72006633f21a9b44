import { Link, useRouterState } from '@tanstack/react-router';
import { isProtectedPath } from '#shared/routes';
import { buttonClasses } from '../ui/button.tsx';
import { LockIcon, LogInIcon } from '../ui/icons.tsx';
import { Logo } from '../ui/logo.tsx';
import { StatusPage } from '../ui/status-page.tsx';

/**
 * The 401 page (spec 000 §2): at /unauthorized, and in place of any protected page without a token.
 * There «Iniciar Sesión» carries the page asked for, which opens after the sign-in (decision 0044).
 */
export function UnauthorizedPage() {
  const location = useRouterState({ select: (state) => state.location });
  const redirect = isProtectedPath(location.pathname) ? location.href : undefined;
  return (
    <StatusPage
      header={<Logo size="sm" />}
      code="401"
      icon={<LockIcon className="size-7" />}
      title="Acceso No Autorizado"
      description="Debes iniciar sesión para acceder a esta página..."
      actions={
        <>
          <Link to="/login" search={redirect ? { redirect } : {}} className={buttonClasses({ size: 'lg' })}>
            <LogInIcon />
            Iniciar Sesión
          </Link>
          <Link to="/register" className={buttonClasses({ variant: 'secondary', size: 'lg' })}>
            Crear una cuenta
          </Link>
        </>
      }
    />
  );
}
