import { type ReactNode, useState } from 'react';
import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { LogInIcon } from '../../ui/icons.tsx';
import { Section } from './settings-layout.tsx';

/** «Cerrar sesión» with its confirmation; the button itself comes from the auth feature. */
export function SignOutSection({ renderSignOutButton }: { renderSignOutButton: () => ReactNode }) {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <Section
      id="sesion"
      description="Cierra la sesión en este navegador. Borraremos los datos de tu cuenta guardados en él."
    >
      <Button
        variant="secondary"
        className="self-start"
        iconStart={<LogInIcon className="size-5 rotate-180" />}
        onClick={() => setIsOpen(true)}
      >
        Cerrar sesión
      </Button>
      <Dialog
        open={isOpen}
        onClose={() => setIsOpen(false)}
        title="¿Cerrar sesión?"
        description="Saldrás de Entreno en este navegador y dejarás de recibir aquí sus notificaciones push."
        actions={
          <>
            <Button variant="secondary" onClick={() => setIsOpen(false)}>
              Cancelar
            </Button>
            {renderSignOutButton()}
          </>
        }
      />
    </Section>
  );
}
