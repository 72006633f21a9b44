import { type FormEvent, useEffect, useId, useState } from 'react';
import { DELETE_CONFIRMATION_WORD } from '#shared/safety/safety-schemas';
import { ApiRequestError } from '../../services/http.ts';
import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { AlertCircleIcon } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { safetyActions } from './safety-actions.ts';
import { safetyApi } from './safety-api.ts';

const METHOD_FAILED = 'No se pudo preparar la eliminación. Inténtalo de nuevo.';

type Method = { status: 'loading' } | { status: 'ready'; method: 'password' | 'confirmation' } | { status: 'error' };

/**
 * "¿Eliminar tu cuenta?": what goes, then the password (accounts that have one) or the word
 * ELIMINAR (Google-only accounts), as the server asks (GET /account/deletion).
 */
function DeleteAccountDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [method, setMethod] = useState<Method>({ status: 'loading' });
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isDeleting, setIsDeleting] = useState(false);
  const formId = useId();

  useEffect(() => {
    if (!open) return;
    let isCurrent = true;
    setMethod({ status: 'loading' });
    setValue('');
    setError(null);
    safetyApi.deletionMethod().then(
      (answer) => isCurrent && setMethod({ status: 'ready', method: answer.method }),
      (failure: unknown) => {
        if (!isCurrent) return;
        setMethod({ status: 'error' });
        setError(failure instanceof ApiRequestError && failure.message ? failure.message : METHOD_FAILED);
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [open]);

  const isPassword = method.status === 'ready' && method.method === 'password';
  const canSubmit =
    method.status === 'ready' && (isPassword ? value.length > 0 : value.trim() === DELETE_CONFIRMATION_WORD);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canSubmit || isDeleting) return;
    setIsDeleting(true);
    setError(null);
    const outcome = await safetyActions.deleteMyAccount(
      isPassword ? { password: value } : { confirmation: DELETE_CONFIRMATION_WORD },
    );
    // On success the sign-out has already taken the person to /login.
    if (outcome.status === 'failed') {
      setIsDeleting(false);
      setError(outcome.message);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={() => !isDeleting && onClose()}
      title="¿Eliminar tu cuenta?"
      description="Esta acción no se puede deshacer."
      actions={
        <>
          <Button variant="secondary" onClick={onClose} disabled={isDeleting}>
            Cancelar
          </Button>
          <Button
            type="submit"
            form={formId}
            variant="danger"
            disabled={!canSubmit}
            isLoading={isDeleting}
            loadingText="Eliminando..."
          >
            Eliminar mi cuenta
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={(event) => void submit(event)} className="flex flex-col gap-4" noValidate>
        <div className="text-[0.9375rem] leading-relaxed">
          <p>Borraremos para siempre:</p>
          <ul className="mt-1.5 flex list-disc flex-col gap-1 pl-5 text-sm">
            <li>Tu perfil y tus fotos.</li>
            <li>Los mensajes que has enviado.</li>
            <li>Tus sesiones abiertas y las notificaciones push.</li>
          </ul>
          <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
            Las personas con las que hablabas verán que la conversación ha terminado.
          </p>
        </div>
        {method.status === 'loading' && <Spinner label="Cargando..." />}
        {method.status === 'ready' &&
          (isPassword ? (
            <TextField
              label="Contraseña"
              type="password"
              autoComplete="current-password"
              hint="Por seguridad, confirma que eres tú."
              value={value}
              onChange={(event) => {
                setValue(event.target.value);
                setError(null);
              }}
              error={error ?? undefined}
              autoFocus
            />
          ) : (
            <TextField
              label={`Escribe ${DELETE_CONFIRMATION_WORD} para confirmar`}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              value={value}
              onChange={(event) => {
                setValue(event.target.value);
                setError(null);
              }}
              error={error ?? undefined}
              autoFocus
            />
          ))}
        {method.status === 'error' && error && (
          <p role="alert" className="flex items-start gap-2 text-sm font-medium text-red-700 dark:text-red-400">
            <AlertCircleIcon className="mt-0.5 size-4 shrink-0" />
            {error}
          </p>
        )}
      </form>
    </Dialog>
  );
}

/** "Descargar mis datos" and "Eliminar mi cuenta" (/config, "Privacidad y Datos"). */
export function AccountDataActions() {
  const [isDownloading, setIsDownloading] = useState(false);
  const [isDeleteOpen, setIsDeleteOpen] = useState(false);
  return (
    <div className="flex flex-col gap-2.5">
      <div className="flex flex-col gap-2.5 sm:flex-row">
        <Button
          variant="secondary"
          isLoading={isDownloading}
          loadingText="Preparando tus datos..."
          onClick={async () => {
            setIsDownloading(true);
            await safetyActions.downloadMyData();
            setIsDownloading(false);
          }}
        >
          Descargar mis datos
        </Button>
        <Button
          variant="secondary"
          className="!text-red-700 dark:!text-red-400"
          onClick={() => setIsDeleteOpen(true)}
          aria-haspopup="dialog"
        >
          Eliminar mi cuenta
        </Button>
      </div>
      <p className="text-sm text-stone-600 dark:text-stone-400">
        Descarga una copia en JSON de todo lo que guardamos sobre ti, o elimina tu cuenta y tus datos.
      </p>
      <DeleteAccountDialog open={isDeleteOpen} onClose={() => setIsDeleteOpen(false)} />
    </div>
  );
}
