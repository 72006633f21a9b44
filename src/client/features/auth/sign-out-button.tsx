import { useState } from 'react';
import { signOut } from '../../services/session.ts';
import { Button, type ButtonProps } from '../../ui/button.tsx';
import { LogInIcon } from '../../ui/icons.tsx';

/** 'Cerrar sesión': ends the session everywhere in this browser and goes to /login (spec 000 §4). */
export function SignOutButton(props: Omit<ButtonProps, 'onClick' | 'children' | 'isLoading'>) {
  const [isSigningOut, setIsSigningOut] = useState(false);
  return (
    <Button
      variant="secondary"
      iconStart={<LogInIcon className="size-5 rotate-180" />}
      {...props}
      isLoading={isSigningOut}
      loadingText="Cerrando sesión..."
      onClick={() => {
        setIsSigningOut(true);
        void signOut('user').finally(() => setIsSigningOut(false));
      }}
    >
      Cerrar sesión
    </Button>
  );
}
