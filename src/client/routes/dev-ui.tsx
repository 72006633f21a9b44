import { useState } from 'react';
import { Button } from '../ui/button.tsx';
import { CountBadge } from '../ui/count-badge.tsx';
import { Dialog } from '../ui/dialog.tsx';
import { BellIcon, HeartIcon } from '../ui/icons.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { Switch } from '../ui/switch.tsx';
import { Tabs } from '../ui/tabs.tsx';
import { TextField } from '../ui/text-field.tsx';
import { toast } from '../ui/toast-store.ts';
import { usePageTitle } from '../ui/use-page-title.ts';

const CARD = 'rounded-3xl bg-white p-5 shadow-sm ring-1 ring-stone-900/6 sm:p-6 dark:bg-stone-900 dark:ring-white/8';
const HEADING = 'mb-4 text-lg font-bold text-stone-900 dark:text-white';

/** A gallery of the design system (src/client/ui), for developers checking both themes. */
export function DevUiPage() {
  usePageTitle('Componentes');
  const [isDialogOpen, setIsDialogOpen] = useState(false);
  const [isVisible, setIsVisible] = useState(true);
  const [isLoading, setIsLoading] = useState(false);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-extrabold tracking-tight text-stone-900 sm:text-3xl dark:text-white">
        Componentes de la interfaz
      </h1>

      <section aria-labelledby="ui-buttons" className={CARD}>
        <h2 id="ui-buttons" className={HEADING}>
          Botones
        </h2>
        <div className="flex flex-wrap items-center gap-3">
          <Button>Guardar cambios</Button>
          <Button variant="secondary">Cancelar</Button>
          <Button variant="ghost">Ver más</Button>
          <Button variant="danger">Eliminar</Button>
          <Button size="sm" iconStart={<HeartIcon className="size-4" />}>
            Entreno
          </Button>
          <Button size="lg" isLoading={isLoading} loadingText="Enviando correo..." onClick={() => setIsLoading(true)}>
            Recuperar contraseña
          </Button>
          <Button disabled>Desactivado</Button>
        </div>
      </section>

      <section aria-labelledby="ui-fields" className={CARD}>
        <h2 id="ui-fields" className={HEADING}>
          Campos
        </h2>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Email" type="email" placeholder="tu@correo.com" autoComplete="email" />
          <TextField
            label="Email"
            type="email"
            defaultValue="ana@"
            error="El email introducido no tiene la estructura correcta"
          />
          <TextField
            label="Contraseña"
            type="password"
            defaultValue="Secreto123!"
            hint="Al menos 8 caracteres, mayúsculas, minúsculas, un número y un carácter especial."
          />
          <TextField label="Teléfono" prefix="+34" inputMode="numeric" placeholder="600123456" />
        </div>
      </section>

      <section aria-labelledby="ui-controls" className={CARD}>
        <h2 id="ui-controls" className={HEADING}>
          Interruptores y pestañas
        </h2>
        <Switch
          checked={isVisible}
          onChange={setIsVisible}
          label="Perfil visible"
          description="Otras personas pueden encontrarte en Conectar."
        />
        <Tabs
          className="mt-6"
          label="Filtro de ejemplo"
          tabs={[
            {
              id: 'all',
              label: 'Todas',
              content: <p className="text-stone-700 dark:text-stone-200">Todas las notificaciones.</p>,
            },
            {
              id: 'matches',
              label: 'Matches',
              content: <p className="text-stone-700 dark:text-stone-200">Solo matches.</p>,
            },
            {
              id: 'messages',
              label: 'Mensajes',
              content: <p className="text-stone-700 dark:text-stone-200">Solo mensajes.</p>,
            },
          ]}
        />
      </section>

      <section aria-labelledby="ui-feedback" className={CARD}>
        <h2 id="ui-feedback" className={HEADING}>
          Avisos, diálogos y contadores
        </h2>
        <div className="flex flex-wrap items-center gap-3">
          <Button variant="secondary" onClick={() => toast.success('Preferencias guardadas')}>
            Aviso de éxito
          </Button>
          <Button
            variant="secondary"
            onClick={() => toast.error('Error de conexión. Verifica tu conexión a internet.')}
          >
            Aviso de error
          </Button>
          <Button
            variant="secondary"
            onClick={() =>
              toast.info('Nueva versión disponible', {
                durationMs: null,
                action: { label: 'Actualizar', onClick: () => {} },
              })
            }
          >
            Aviso con acción
          </Button>
          <Button onClick={() => setIsDialogOpen(true)}>Abrir diálogo</Button>
        </div>
        <div className="mt-5 flex items-center gap-5 text-stone-700 dark:text-stone-200">
          <Spinner />
          <span className="relative">
            <BellIcon className="size-6" />
            <CountBadge count={12} max={9} className="absolute -right-2.5 -top-2" />
          </span>
          <CountBadge count={3} max={99} />
          <CountBadge count={150} max={99} />
        </div>
      </section>

      <Dialog
        open={isDialogOpen}
        onClose={() => setIsDialogOpen(false)}
        title="Cerrar sesión"
        description="¿Seguro que quieres cerrar sesión? Tendrás que volver a iniciar sesión para ver tus mensajes."
        actions={
          <>
            <Button variant="secondary" onClick={() => setIsDialogOpen(false)}>
              Cancelar
            </Button>
            <Button variant="danger" onClick={() => setIsDialogOpen(false)}>
              Cerrar sesión
            </Button>
          </>
        }
      />
    </div>
  );
}
